package policy

import (
	"path"
	"testing"
)

// trackedEnv are the facts of a repository that tracks a .env and holds
// a directory src (no other path exists).
type trackedEnv struct{ NoFacts }

func (trackedEnv) GitSecrets(string) ([]string, bool) { return []string{"/home/u/proj/.env"}, true }

func (trackedEnv) Resolve(p string) (string, PathState) {
	if p = path.Clean(p); p == "/home/u/proj/src" || p == "/home/u/proj" {
		return p, PathExists
	}
	return p, PathMissing
}

// In a repository tracking a secret, a content-printing read is allowed
// only when its pathspecs leave the secret out. An option's value or git
// grep's pattern that happens to name an existing file (src, main.go) is
// no pathspec: git log -p --author src prints every file's history.
func TestGitOptionValuesAreNoPathspecs(t *testing.T) {
	e := newEngine(t, nil)
	cc := CommandContext{Cwd: "/home/u/proj", Home: "/home/u", Facts: trackedEnv{}}
	for _, cmd := range []string{
		"git log -p --author src", "git log -p --grep src", "git log -p -S src", "git log -pS src", "git log -p -G src",
		"git log -p -O src", "git log -p --since src", "git whatchanged -p --author src",
		"git grep src HEAD", "git grep -i src HEAD", "git grep -e src HEAD", "git grep -ie src HEAD", "git grep -f src HEAD",
		"git grep --file src HEAD", "git grep -f src", "git grep -e x --max-depth src", "git grep -f src --no-index",
		"git diff -S src", "git log -p --min-parents src",
	} {
		if d := decideCmd(e, cmd, cc); d.Decision == Allow {
			t.Errorf("%q allowed in a repository tracking .env", cmd)
		}
	}
	for _, cmd := range []string{
		"git log -p src", "git log -p -- src", "git log --stat -p src", "git log -5 -p src", "git log -p --author=x src",
		"git log -p -Sfoo src", "git grep -n foo src", "git grep -C2 foo src", "git grep -C 2 foo src", "git grep -e x src",
		"git grep foo HEAD -- src", "git diff HEAD src",
	} {
		if d := decideCmd(e, cmd, cc); d.Decision != Allow {
			t.Errorf("%q: %s %q (narrowed to src)", cmd, d.Decision, d.Reasons)
		}
	}
}
