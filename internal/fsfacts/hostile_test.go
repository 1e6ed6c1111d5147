package fsfacts_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/testenv"
)

func run(t *testing.T, dir string, env []string, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = env
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// baseEnv is a clean environment with a private HOME, so the user's own
// git configuration plays no part.
func baseEnv(home string) []string {
	return []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "LANG=C"}
}

// hostileRepo builds a repository whose own configuration names a canary
// program in every setting a read could run, with .gitattributes choosing
// the drivers, a hook run by index refreshes, and a signed-looking log.
func hostileRepo(t *testing.T, home string) (repo, canary string) {
	t.Helper()
	root := t.TempDir()
	repo = filepath.Join(root, "repo")
	canary = filepath.Join(root, "canary")
	prog := filepath.Join(root, "evil")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho \"$0 $*\" >> "+canary+"\ncat \"$1\" 2>/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := baseEnv(home)
	out := run(t, root, env, `set -e
git init -q repo && cd repo
git config user.email a@b.c && git config user.name a
printf 'one\n' > f.txt && printf 'bin\0ary' > g.bin
git add . && git commit -qm one
printf 'two\n' >> f.txt
printf '* diff=evil filter=evil\n' > .gitattributes
git add .gitattributes && git commit -qm attrs
printf 'three\n' >> f.txt
touch -d 2001-01-01 f.txt
git config diff.evil.textconv `+prog+`
git config diff.evil.command `+prog+`
git config filter.evil.clean `+prog+`
git config filter.evil.smudge `+prog+`
git config diff.external `+prog+`
git config core.pager `+prog+`
git config pager.log `+prog+`
git config core.fsmonitor `+prog+`
git config gpg.program `+prog+`
git config log.showSignature true
git config credential.helper `+prog+`
git config core.sshCommand `+prog+`
printf '#!/bin/sh\n%s hook\n' `+prog+` > .git/hooks/post-index-change
chmod +x .git/hooks/post-index-change
`)
	if _, err := os.Stat(filepath.Join(repo, ".git")); err != nil {
		t.Fatalf("fixture: %v\n%s", err, out)
	}
	os.Remove(canary)
	return repo, canary
}

// gitReads are reads a model might run; each must either be asked or run
// without the canary.
var gitReads = []string{
	"git status", "git status -s", "git diff", "git diff HEAD", "git diff --stat", "git diff --cached",
	"git show", "git show HEAD", "git show HEAD:f.txt", "git log -p", "git log -1", "git log --oneline",
	"git log --stat", "git log --format=%H", "git log --show-signature", "git log --format=%G?",
	"git blame f.txt", "git annotate f.txt", "git grep one", "git grep --textconv one",
	"git cat-file -p HEAD:f.txt", "git cat-file --textconv HEAD:f.txt", "git cat-file --filters HEAD:f.txt",
	"git ls-files", "git ls-files -m", "git hash-object f.txt", "git diff-files -p", "git diff-index -p HEAD",
	"git range-diff HEAD~1...HEAD", "git whatchanged -p", "git branch", "git tag", "git rev-parse HEAD",
	"git for-each-ref", "git describe --always", "git shortlog -s HEAD", "git stash list", "git reflog",
	"git remote -v", "git remote", "git count-objects", "git check-attr -a f.txt", "git clean -n",
	"git -C . status", "git --no-pager log -p", "cd . && git diff", "git diff | cat", "git log -p -1 | head",
}

func TestHostileRepositoryCanaryNeverRuns(t *testing.T) {
	testenv.Tool(t, "git")
	testenv.Tool(t, "bash")
	home := t.TempDir()
	repo, canary := hostileRepo(t, home)
	env := append(baseEnv(home), host.NonInteractiveEnv...)

	// the fixture is really hostile: without nb's environment, git status
	// runs the canary
	run(t, repo, baseEnv(home), "git status")
	if _, err := os.Stat(canary); err != nil {
		t.Fatal("the fixture does not run its canary through a plain git status")
	}
	os.Remove(canary)

	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	facts := fsfacts.Disk{Home: home}
	cc := policy.CommandContext{Cwd: repo, Home: home, Facts: facts}
	allowed := 0
	for _, cmd := range gitReads {
		d := decide(e, cmd, cc)
		if d.Decision != policy.Allow {
			continue
		}
		allowed++
		out := run(t, repo, env, cmd)
		if b, err := os.ReadFile(canary); err == nil {
			t.Errorf("%q was allowed (%s) and ran the repository's program: %s\n%s", cmd, d.DecidedBy, b, out)
			os.Remove(canary)
		}
	}
	if allowed == 0 {
		t.Fatal("no git read was allowed at all: the test proves nothing")
	}
	for _, cmd := range []string{"git status", "git diff", "git log -p", "git show", "git blame f.txt"} {
		if d := decide(e, cmd, cc); d.Decision == policy.Allow {
			t.Errorf("%q allowed in a repository configuring programs", cmd)
		}
	}
	// nor from another directory through git -C
	elsewhere := policy.CommandContext{Cwd: home, Home: home, Facts: facts}
	for _, cmd := range []string{"git -C " + repo + " status", "git -C " + repo + " log -p"} {
		if d := decide(e, cmd, elsewhere); d.Decision == policy.Allow {
			t.Errorf("%q allowed on a repository configuring programs", cmd)
		}
	}
	// no rule pre-approves them either
	g, err := policy.New(policy.Options{Approval: config.Default().Approval, Approve: []string{"git diff *", "git status *"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"git status", "git diff"} {
		if d := decide(g, cmd, cc); d.Decision == policy.Allow {
			t.Errorf("%q allowed by a rule in a repository configuring programs", cmd)
		}
	}
}

// In a repository without such settings the same reads are allowed (so the
// hostile test above is not passing by asking everything), and they run
// without the canary even when the user's global configuration names it.
func TestPlainRepositoryReadsAllowed(t *testing.T) {
	testenv.Tool(t, "git")
	testenv.Tool(t, "bash")
	home := t.TempDir()
	repo := filepath.Join(t.TempDir(), "repo")
	run(t, filepath.Dir(repo), baseEnv(home), "git init -q repo && cd repo && git config user.email a@b.c && git config user.name a && echo x > f && echo z > g && git add f g && git commit -qm 1 && echo y >> f")
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	cc := policy.CommandContext{Cwd: repo, Home: home, Facts: fsfacts.Disk{Home: home}}
	for _, cmd := range []string{"git status", "git diff", "git log -p", "git show", "git blame f", "git diff HEAD", "git grep x"} {
		if d := decide(e, cmd, cc); d.Decision != policy.Allow {
			t.Errorf("%q in a plain repository: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	// git -C on it from another directory is judged by the same facts
	elsewhere := policy.CommandContext{Cwd: home, Home: home, Facts: fsfacts.Disk{Home: home}}
	for _, cmd := range []string{"git -C " + repo + " status", "git -C " + repo + " log -p"} {
		if d := decide(e, cmd, elsewhere); d.Decision != policy.Allow {
			t.Errorf("%q on a plain repository: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	// a hook that an index refresh runs: reads are asked, and nb's
	// environment (GIT_OPTIONAL_LOCKS=0) also keeps git status from
	// refreshing the index
	canary := filepath.Join(t.TempDir(), "canary")
	hook := filepath.Join(repo, ".git", "hooks", "post-index-change")
	os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+canary+"\n"), 0o755)
	for _, cmd := range []string{"git status", "git diff"} {
		if d := decide(e, cmd, cc); d.Decision == policy.Allow {
			t.Errorf("%s allowed with a post-index-change hook", cmd)
		}
	}
	run(t, repo, append(baseEnv(home), host.NonInteractiveEnv...), "touch -d 2001-01-01 g; git status")
	if _, err := os.Stat(canary); err == nil {
		t.Error("an allowed git status ran the post-index-change hook")
	}
	run(t, repo, baseEnv(home), "touch -d 2003-01-01 g; git status")
	if _, err := os.Stat(canary); err != nil {
		t.Error("the hook fixture does not run without nb's environment")
	}
	// without facts, nothing is known about the repository
	if d := decide(e, "git diff", policy.CommandContext{Cwd: repo, Home: home}); d.Decision == policy.Allow {
		t.Error("git diff allowed without facts about the repository")
	}
}

func TestSecretFiles(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"src/a.go", ".env", "conf/server.key", "docs/readme.md", ".env.example", "deep/x/id_rsa"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("FAKE"), 0o600)
	}
	os.MkdirAll(filepath.Join(dir, "repo", ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, "repo", ".git", "config"), []byte("[remote \"origin\"]\n\turl = https://x:ghp_123@github.com/a/b\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "clean", ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, "clean", ".git", "config"), []byte("[remote \"origin\"]\n\turl = git@github.com:a/b\n"), 0o644)
	os.Symlink("/home/u/.ssh/id_ed25519", filepath.Join(dir, "src", "link"))
	got, ok := fsfacts.Disk{}.SecretFiles(dir)
	if !ok {
		t.Fatal("incomplete")
	}
	want := map[string]bool{".env": true, "conf/server.key": true, "deep/x/id_rsa": true, "repo/.git/config": true, "src/link": true}
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected %q", g)
		}
		delete(want, g)
	}
	for w := range want {
		t.Errorf("missing %q", w)
	}
	if _, ok := (fsfacts.Disk{MaxEntries: 3}).SecretFiles(dir); ok {
		t.Error("a tree larger than the budget is reported complete")
	}
	if got, ok := (fsfacts.Disk{}).SecretFiles(filepath.Join(dir, "src", "..", "docs")); !ok || len(got) != 0 {
		t.Errorf("docs: %q %v", got, ok)
	}
}

// TestRelativePathEntryRunsTheRepositoryFile: with a relative PATH entry
// (".", "node_modules/.bin", an empty one), a command name finds the
// repository's own file before the installed program. Every read-only
// command that would run one asks, and the repository's ls is really
// what bash runs.
func TestRelativePathEntryRunsTheRepositoryFile(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	canary := filepath.Join(root, "canary")
	if err := os.MkdirAll(filepath.Join(repo, "node_modules", ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"node_modules/.bin/ls", "cat"} {
		if err := os.WriteFile(filepath.Join(repo, p), []byte("#!/bin/sh\necho ran > "+canary+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	decide := func(cmd string) policy.Verdict {
		cc := policy.CommandContext{Cwd: repo, Home: root, Facts: fsfacts.Disk{Home: root}}
		return e.Decide(policy.Action{Kind: policy.RunCommand, Command: cmd, Where: cc}).Decision
	}
	sys := os.Getenv("PATH")
	for _, tc := range []struct {
		path, cmd string
		runs      bool
	}{
		{"node_modules/.bin:" + sys, "ls -la", true},
		{".:" + sys, "cat README.md", true},
		{":" + sys, "cat README.md", true},
		{sys + ":node_modules/.bin", "ls", false},
		{sys, "ls", false},
		{"node_modules/.bin:" + sys, "echo ls", false},
	} {
		t.Setenv("PATH", tc.path)
		os.Remove(canary)
		run(t, repo, []string{"PATH=" + tc.path}, tc.cmd+" >/dev/null 2>&1")
		_, ranErr := os.Stat(canary)
		if ran := ranErr == nil; ran != tc.runs {
			t.Fatalf("PATH=%s %s: bash ran the repository's file: %v, want %v", tc.path, tc.cmd, ran, tc.runs)
		}
		if got := decide(tc.cmd); tc.runs && got == policy.Allow {
			t.Errorf("PATH=%s %q is allowed: bash runs the repository's own program", tc.path, tc.cmd)
		} else if !tc.runs && got != policy.Allow {
			t.Errorf("PATH=%s %q is %v, want allow", tc.path, tc.cmd, got)
		}
	}
}
