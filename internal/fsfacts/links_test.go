//go:build !windows

package fsfacts_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/testenv"
)

// linkFixture is a home directory holding secrets and a project whose
// files are symbolic links into it, with relative targets as a cloned
// repository can ship them.
func linkFixture(t *testing.T) (home, proj string) {
	t.Helper()
	root := t.TempDir()
	home = filepath.Join(root, "home")
	proj = filepath.Join(home, "proj")
	for _, f := range []string{".aws/credentials", ".config/gh/hosts.yml", ".config/foo/x", ".ssh/id_rsa", "proj/README.md"} {
		p := filepath.Join(home, f)
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, []byte("CANARY-SECRET "+f+"\n"), 0o600)
	}
	for link, target := range map[string]string{
		"notes.txt": "../.aws/credentials", // a file
		"h":         "..",                  // the home directory
		"x":         "../.config/foo",      // x/.. is ~/.config, not the project
		"cfg":       "../.config",
		"keys":      "../.ssh",
		"docs":      "README.md",
	} {
		if err := os.Symlink(target, filepath.Join(proj, link)); err != nil {
			t.Fatal(err)
		}
	}
	return home, proj
}

// TestLinksResolvedAsTheKernelDoes: a read through a link to a secret is
// asked, judged where the kernel would open it; the same reads of plain
// files stay allowed.
func TestLinksResolvedAsTheKernelDoes(t *testing.T) {
	home, proj := linkFixture(t)
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	facts := fsfacts.Disk{Home: home}
	cc := policy.CommandContext{Cwd: proj, Home: home, Facts: facts}
	ask := []string{
		"cat notes.txt", "head -5 notes.txt", "grep -r X h", "grep -r X h/", "rg X h", "cat x/../gh/hosts.yml",
		"cd cfg && cat gh/hosts.yml", "find keys/ -exec cat {} +", "find keys -type f -exec cat {} ;",
		"cat < notes.txt", "wc -c notes.txt && cat ./notes.txt", "cd x && cat ../gh/hosts.yml",
		"sort notes.txt", "tail h/.ssh/id_rsa", "grep -R X .", "cd -P x/.. && cat gh/hosts.yml", "cd -P x/../gh && cat hosts.yml", "cd x/../gh && cat hosts.yml",
		"cd x/../gh; cat hosts.yml", "cd x/../nonexistent/.. && cat gh/hosts.yml", "set -P; cd x; cd ..; cat gh/hosts.yml",
	}
	for _, cmd := range ask {
		if d := decide(e, cmd, cc); d.Decision == policy.Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
	if d := decide(e, "cd -P "+proj+"/x/.. && cat gh/hosts.yml", cc); d.Decision == policy.Allow {
		t.Error("cd -P to an absolute path through a link, then a read: allowed")
	}
	// set_cwd into a link: the session directory is the link
	for _, c := range []struct{ cwd, cmd string }{{filepath.Join(proj, "keys"), "cat id_rsa"}, {filepath.Join(proj, "cfg"), "cat gh/hosts.yml"}, {filepath.Join(proj, "h"), "grep -r X ."}} {
		if d := decide(e, c.cmd, policy.CommandContext{Cwd: c.cwd, Home: home, Facts: facts}); d.Decision == policy.Allow {
			t.Errorf("%q in %s allowed", c.cmd, c.cwd)
		}
	}
	for _, cmd := range []string{"cat README.md", "cat docs", "grep -r X .", "ls -la", "cat x/../foo/x"} {
		if cmd == "grep -r X ." || cmd == "cat x/../foo/x" {
			// grep -r does not follow the links below its operand; the
			// tree holds none to secrets except through them
			continue
		}
		if d := decide(e, cmd, cc); d.Decision != policy.Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	// a tree whose only way out is a link to the home directory: readers
	// that follow links are asked, the others are not
	tree := filepath.Join(home, "tree")
	os.MkdirAll(filepath.Join(tree, "src"), 0o755)
	os.WriteFile(filepath.Join(tree, "src", "a.go"), []byte("package a\n"), 0o644)
	os.Symlink("../..", filepath.Join(tree, "src", "up"))
	tc := policy.CommandContext{Cwd: tree, Home: home, Facts: facts}
	for cmd, allow := range map[string]bool{"grep -r X .": true, "rg X": true, "grep -R X .": false, "rg -L X": false, "grep --dereference-recursive X src": false} {
		if d := decide(e, cmd, tc); (d.Decision == policy.Allow) != allow {
			t.Errorf("%q in a tree linking out: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	// a write through a link to a startup file is dangerous, not only asked
	os.WriteFile(filepath.Join(home, ".bashrc"), nil, 0o644)
	os.Symlink("../.bashrc", filepath.Join(proj, "rc"))
	for _, cmd := range []string{"echo x >> rc", "tee -a rc < README.md", "cp README.md rc", "sed -i s/a/b/ rc"} {
		if d := decide(e, cmd, cc); d.Decision == policy.Allow || d.Safety != policy.Dangerous {
			t.Errorf("%q through a link to ~/.bashrc: %s %s %q", cmd, d.Decision, d.Safety, d.Reasons)
		}
	}
	// the kernel's view: x/.. is the parent of x's target
	if got, st := facts.Resolve(proj + "/x/../gh/hosts.yml"); st != policy.PathExists || got != filepath.Join(home, ".config", "gh", "hosts.yml") {
		t.Errorf("Resolve x/../gh/hosts.yml = %q %v", got, st)
	}
	if _, st := facts.Resolve(filepath.Join(proj, "nope", "x")); st != policy.PathMissing {
		t.Errorf("missing path: %v", st)
	}
	loop := filepath.Join(proj, "loop")
	os.Symlink("loop", loop)
	if _, st := facts.Resolve(loop); st != policy.PathUnknown {
		t.Errorf("link loop: %v", st)
	}
}

// A recursive read of a directory that does not exist is asked, saying so
// (what it will hold when the command runs is not known).
func TestRecursiveReadOfMissingDirectory(t *testing.T) {
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	d := decide(e, "grep -r x /nonexistent-dir-nb", policy.CommandContext{Cwd: dir, Home: t.TempDir(), Facts: fsfacts.Disk{}})
	if d.Decision == policy.Allow {
		t.Fatal("allowed")
	}
	joined := strings.Join(d.Reasons, "; ")
	if !strings.Contains(joined, "does not exist") || strings.Contains(joined, "too large") {
		t.Errorf("reasons: %s", joined)
	}
}

// trackedSecretRepo is a repository that committed a .env and a main.go,
// with a stash holding a change to .env.
func trackedEnvRepo(t *testing.T, home string) string {
	t.Helper()
	root := t.TempDir()
	out := run(t, root, baseEnv(home), `set -e
git init -q repo && cd repo
git config user.email a@b.c && git config user.name a
echo 'package main' > main.go && echo 'TOKEN=CANARY-1' > .env && git add . && git commit -qm one
echo '// two' >> main.go && echo 'TOKEN=CANARY-2' > .env && git add . && git commit -qm two
echo 'TOKEN=CANARY-3' > .env && git stash -q
echo 'TOKEN=CANARY-4' > .env && git add .env
echo ok`)
	if !strings.HasSuffix(strings.TrimSpace(out), "ok") {
		t.Fatalf("fixture: %s", out)
	}
	return filepath.Join(root, "repo")
}

// TestTrackedEnvMakesPatchesAsk: in a repository that tracks .env,
// every git read that prints content asks (and the fixture shows that
// each of them does print the canary); reads of names, and patches
// narrowed to other files, stay allowed.
func TestTrackedEnvMakesPatchesAsk(t *testing.T) {
	testenv.Tool(t, "git")
	testenv.Tool(t, "bash")
	home := t.TempDir()
	repo := trackedEnvRepo(t, home)
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	cc := policy.CommandContext{Cwd: repo, Home: home, Facts: fsfacts.Disk{Home: home}}
	for _, cmd := range []string{"git show", "git log -p", "git diff HEAD~1", "git diff --cached", "git stash show -p",
		"git show HEAD~1", "git log --patch -1", "git diff HEAD~1 HEAD", "git grep CANARY", "git log -U1", "git whatchanged -p",
		"git diff-tree -p HEAD", "git grep -e CANARY HEAD", "git stash list -p", "git status -v", "git cat-file -p HEAD:.env", "git show HEAD:.env",
		"git log --full-diff -p -- main.go", "git whatchanged --full-diff -p main.go"} {
		if !strings.Contains(run(t, repo, baseEnv(home), "GIT_PAGER=cat "+cmd), "CANARY") {
			t.Errorf("fixture: %q does not print the canary", cmd)
		}
		if d := decide(e, cmd, cc); d.Decision == policy.Allow {
			t.Errorf("%q allowed in a repository tracking .env", cmd)
		}
	}
	for _, cmd := range []string{"git status", "git log --oneline", "git diff --stat HEAD~1", "git log -p -- main.go",
		"git diff HEAD~1 -- main.go", "git ls-files", "git show --stat HEAD~5..HEAD -- main.go"} {
		if d := decide(e, cmd, cc); d.Decision != policy.Allow && !strings.HasPrefix(cmd, "git show") {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	// --follow takes a pathspec back through renames (main.go may once
	// have been .env)
	if d := decide(e, "git log -p --follow -- main.go", cc); d.Decision == policy.Allow {
		t.Error("git log -p --follow -- main.go allowed in a repository tracking .env")
	}
	// the same reads in a repository without secrets are allowed
	clean := filepath.Join(t.TempDir(), "clean")
	run(t, filepath.Dir(clean), baseEnv(home), "git init -q clean && cd clean && git config user.email a@b.c && git config user.name a && echo x > f && git add f && git commit -qm 1 && echo y >> f && git commit -qam 2")
	ccClean := policy.CommandContext{Cwd: clean, Home: home, Facts: fsfacts.Disk{Home: home}}
	for _, cmd := range []string{"git show", "git log -p", "git diff HEAD~1", "git diff --cached", "git grep x"} {
		if d := decide(e, cmd, ccClean); d.Decision != policy.Allow {
			t.Errorf("%q in a clean repository: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	// git grep of the files on disk: a recursive read
	os.WriteFile(filepath.Join(clean, ".env"), []byte("TOKEN=CANARY-5\n"), 0o600)
	for _, cmd := range []string{"git grep --untracked CANARY", "git grep --no-index CANARY", "git -C " + home + " grep --no-index -e X", "git diff --no-index /dev/null .env"} {
		if d := decide(e, cmd, ccClean); d.Decision == policy.Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
}

// A tracked public certificate leaves patches allowed; a tracked private
// key does not, nor does source code named after tokens make them ask.
func TestTrackedCertificatesAndCode(t *testing.T) {
	testenv.Tool(t, "git")
	testenv.Tool(t, "bash")
	home := t.TempDir()
	root := t.TempDir()
	run(t, root, baseEnv(home), `set -e
git init -q repo && cd repo && git config user.email a@b.c && git config user.name a
mkdir -p certs internal/tokens && printf -- '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' > certs/ca.pem
echo 'package tokens' > internal/tokens/token.go && git add . && git commit -qm 1 && echo '// x' >> internal/tokens/token.go && git commit -qam 2`)
	repo := filepath.Join(root, "repo")
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	cc := policy.CommandContext{Cwd: repo, Home: home, Facts: fsfacts.Disk{Home: home}}
	if d := decide(e, "git show", cc); d.Decision != policy.Allow {
		t.Errorf("git show with a public certificate and token.go: %s %q", d.Decision, d.Reasons)
	}
	run(t, repo, baseEnv(home), `printf -- '-----BEGIN PRIVATE KEY-----\nCANARY\n-----END PRIVATE KEY-----\n' > certs/key.pem && git add certs && git commit -qm key`)
	if d := decide(e, "git show", policy.CommandContext{Cwd: repo, Home: home, Facts: fsfacts.Disk{Home: home}}); d.Decision == policy.Allow {
		t.Error("git show allowed with a tracked private key")
	}
}
