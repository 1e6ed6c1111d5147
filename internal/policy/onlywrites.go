package policy

import "github.com/nb-cli/nb/internal/shellparse"

// fileOnly are programs whose only effects nb knows of are reading and
// writing the files their arguments name: a command made of them, of
// read-only commands and of harmless wrappers can run first in a
// copy-on-write view (SPEC §16), its changes approved instead of its text.
var fileOnly = map[string]bool{
	"cp": true, "mv": true, "rm": true, "mkdir": true, "rmdir": true, "touch": true, "ln": true,
	"chmod": true, "truncate": true, "tee": true, "sed": true, "patch": true, "install": true,
	"gzip": true, "gunzip": true, "sort": true, "uniq": true, "split": true, "csplit": true,
	"mktemp": true, "dos2unix": true, "unix2dos": true,
}

// onlyWrites reports a command whose only effects nb knows of are writes
// to files (Decision.OnlyWrites): it parsed whole, nothing in it is
// unknown or dynamic, nothing reaches the network or expands a secret,
// it is not read-only, and every simple command in it is read-only, a
// harmless wrapper or one of fileOnly.
func onlyWrites(a *shellparse.Analysis, as *assessment) bool {
	if a.Err != nil || len(a.Unknown) > 0 || len(a.Recursive) > 0 || as.network || as.secretEnv != "" || as.safety == Safe {
		return false
	}
	for _, l := range a.Leaves {
		if info := as.info[l]; info != nil && info.safe {
			continue
		}
		if l.Name() == "" || !fileOnly[l.Base()] && !harmless(l.Base()) {
			return false
		}
	}
	return len(a.Leaves) > 0
}
