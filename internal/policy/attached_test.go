package policy

import (
	"path"
	"testing"
)

// linkedSecret are the facts of a directory where ./foo is a link to a
// private key.
type linkedSecret struct{ NoFacts }

func (linkedSecret) Resolve(p string) (string, PathState) {
	if p = path.Clean(p); p == "/home/u/proj/foo" {
		return "/home/u/.ssh/id_rsa", PathExists
	}
	return p, PathExists
}

// A file named by a value attached to its option (date --file=F, -fF)
// is judged where it leads, as the same file given as the next word is:
// date, ss and file print the lines of a file they cannot parse.
func TestAttachedOptionValuesAreResolved(t *testing.T) {
	e := newEngine(t, nil)
	cc := CommandContext{Cwd: "/home/u/proj", Home: "/home/u", Facts: linkedSecret{}}
	for _, cmd := range []string{"date -f foo", "date -ffoo", "date --file=foo", "ss -Ffoo", "ss --filter=foo", "file -mfoo x",
		"file --magic-file=foo x", "du --exclude-from=foo .", "date -uffoo", "grep -iffoo x", "sort --random-source=foo x"} {
		if d := decideCmd(e, cmd, cc); d.Decision == Allow {
			t.Errorf("%q allowed where foo leads to a private key", cmd)
		}
	}
	for _, cmd := range []string{"date -d tomorrow", "date --date=now", "ls -la", "ss -tlnp", "du -sh ."} {
		if d := decideCmd(e, cmd, cc); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
}
