package policy

import (
	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// onlyWrites reports a command whose only effects nb knows of are writes
// to files (Decision.OnlyWrites): it parsed whole, nothing in it is
// unknown or dynamic, nothing reaches the network or expands a secret,
// it is not read-only, and every simple command in it is read-only, a
// harmless wrapper or one that only reads and writes files
// (cmdbase.FilesOnly).
func onlyWrites(a *shellparse.Analysis, as *assessment) bool {
	if a.Err != nil || len(a.Unknown) > 0 || len(a.Recursive) > 0 || as.network || as.secretEnv != "" || as.safety == Safe {
		return false
	}
	for _, l := range a.Leaves {
		if info := as.info.of(l); info != nil && info.safe {
			continue
		}
		if l.Name() == "" || !cmdbase.FilesOnly(l.Base()) && !harmless(l.Base()) {
			return false
		}
	}
	return len(a.Leaves) > 0
}
