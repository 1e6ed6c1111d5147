package fsfacts_test

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/testenv"
)

// spelling is one way of writing a repository's configuration so that a
// read runs a program: the text appended to .git/config (with PROG for
// the canary, INC for an included file's path), the text of that
// included file, and the key git reports for it.
type spelling struct {
	name, config, include, key string
	attrs                      bool // .gitattributes selects driver "x"
	bom                        bool // the file starts with a UTF-8 BOM
}

var spellings = []spelling{
	{name: "plain", config: "[diff]\n\texternal = PROG\n", key: "diff.external"},
	{name: "tab in subsection header", config: "[diff\t\"x\"]\n\ttextconv = PROG\n", key: "diff.x.textconv", attrs: true},
	{name: "two sections on a line", config: "[core] [diff] external = PROG\n", key: "diff.external"},
	{name: "key on the header line", config: "[diff]external=PROG\n", key: "diff.external"},
	{name: "UTF-8 BOM", config: "[diff]\n\texternal = PROG\n", key: "diff.external", bom: true},
	{name: "include with inline comment", config: "[include]\n\tpath = INC ; a comment\n", include: "[diff]\n\texternal = PROG\n", key: "diff.external"},
	{name: "inner quotes", config: "[diff]\n\texternal = \"PROGHEAD\"PROGTAIL\n", key: "diff.external"},
	{name: "trailing comment", config: "[diff]\n\texternal = PROG ;x y\n", key: "diff.external"},
	{name: "dotted subsection", config: "[diff.x]\n\ttextconv = PROG\n", key: "diff.x.textconv", attrs: true},
	{name: "continued value", config: "[diff]\n\texternal = PROG\\\n\n", key: "diff.external"},
	{name: "include through ~user", config: "[include]\n\tpath = TILDEUSER\n", include: "[diff]\n\texternal = PROG\n", key: "diff.external"},
	{name: "includeIf gitdir", config: "[includeIf \"gitdir:GITDIR\"]\n\tpath = INC\n", include: "[diff]\n\texternal = PROG\n", key: "diff.external"},
}

// buildSpelling makes a repository with a committed and then modified
// f.txt whose configuration has sp; it returns the repository and the
// canary file the program writes.
func buildSpelling(t *testing.T, home string, sp spelling) (repo, canary string) {
	t.Helper()
	root := t.TempDir()
	repo = filepath.Join(root, "repo")
	canary = filepath.Join(root, "canary")
	prog := filepath.Join(root, "evil")
	os.WriteFile(prog, []byte("#!/bin/sh\necho ran >> "+canary+"\n"), 0o755)
	out := run(t, root, baseEnv(home), `set -e
git init -q repo && cd repo
git config user.email a@b.c && git config user.name a
printf 'one\n' > f.txt && git add f.txt && git commit -qm one
printf 'two\n' >> f.txt && git add f.txt && git commit -qm two
printf 'three\n' >> f.txt
`)
	if _, err := os.Stat(filepath.Join(repo, ".git")); err != nil {
		t.Fatalf("fixture: %v\n%s", err, out)
	}
	inc := filepath.Join(root, "inc.cfg")
	cfgText := sp.config
	half := len(prog) / 2
	r := strings.NewReplacer("PROGHEAD", prog[:half], "PROGTAIL", prog[half:], "PROG", prog, "INC", inc, "GITDIR", filepath.Join(repo, ".git"))
	cfgText = r.Replace(cfgText)
	if strings.Contains(cfgText, "TILDEUSER") {
		u, err := user.Current()
		if err != nil || u.HomeDir == "" {
			t.Skip("no home directory for the current user")
		}
		rel, err := filepath.Rel(u.HomeDir, inc)
		if err != nil {
			t.Skip(err)
		}
		cfgText = strings.ReplaceAll(cfgText, "TILDEUSER", "~"+u.Username+"/"+rel)
	}
	if sp.include != "" {
		os.WriteFile(inc, []byte(r.Replace(sp.include)), 0o644)
	}
	cfgPath := filepath.Join(repo, ".git", "config")
	old, _ := os.ReadFile(cfgPath)
	text := string(old) + cfgText
	if sp.bom {
		text = "\xef\xbb\xbf" + cfgText + string(old)
	}
	os.WriteFile(cfgPath, []byte(text), 0o644)
	if sp.attrs {
		os.WriteFile(filepath.Join(repo, ".git", "info", "attributes"), []byte("* diff=x\n"), 0o644)
	}
	return repo, canary
}

// TestConfigSpellingsAsked: every spelling git itself reads as a
// program-naming setting is reported by the facts, and git diff, git log
// -p and git show are asked. The fixture is checked against git twice:
// git reports the key (git config --list), and a plain git diff runs the
// canary.
func TestConfigSpellingsAsked(t *testing.T) {
	testenv.Tool(t, "git")
	testenv.Tool(t, "bash")
	home := t.TempDir()
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range spellings {
		t.Run(sp.name, func(t *testing.T) {
			repo, canary := buildSpelling(t, home, sp)
			listed, _ := exec.Command("git", "-C", repo, "config", "--list", "--includes").Output()
			if !strings.Contains(string(listed), sp.key+"=") {
				t.Fatalf("git does not report %s for this spelling; the fixture proves nothing:\n%s", sp.key, listed)
			}
			run(t, repo, baseEnv(home), "git diff")
			if _, err := os.Stat(canary); err != nil {
				t.Fatalf("a plain git diff does not run the canary; the fixture proves nothing")
			}
			os.Remove(canary)
			facts := fsfacts.Disk{Home: home}
			got, ok := risky(facts, repo)
			if !ok || !contains(got, sp.key) {
				t.Errorf("facts report %q (complete %v), want %s", got, ok, sp.key)
			}
			cc := policy.CommandContext{Cwd: repo, Home: home, Facts: facts}
			for _, cmd := range []string{"git diff", "git log -p", "git show", "git diff HEAD~1", "git -C " + repo + " diff"} {
				if d := decide(e, cmd, cc); d.Decision == policy.Allow {
					t.Errorf("%q allowed", cmd)
				}
			}
			if _, err := os.Stat(canary); err == nil {
				t.Error("deciding ran the canary")
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s || strings.HasSuffix(x, ": "+s) {
			return true
		}
	}
	return false
}

// TestConfigReachedThroughLayouts: configuration git reads from other
// places than .git/config — an embedded bare repository named by
// .git/commondir, a submodule's git directory, a linked worktree's
// config.worktree — and layouts nb cannot vouch for (core.worktree
// elsewhere, a partial clone).
func TestConfigReachedThroughLayouts(t *testing.T) {
	testenv.Tool(t, "git")
	testenv.Tool(t, "bash")
	home := t.TempDir()
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, script, key string
	}{
		{"embedded bare repository through commondir", `git clone -q --bare . evil.git
git --git-dir=evil.git config diff.external /bin/false
echo ../evil.git > .git/commondir`, "diff.external"},
		{"submodule git directory", `mkdir -p .git/modules/sub && git init -q --bare .git/modules/sub
git --git-dir=.git/modules/sub config filter.x.smudge /bin/false`, "submodule modules/sub: filter.x.smudge"},
		{"work tree elsewhere", `git config core.worktree ` + home, "core.worktree"},
		{"partial clone", `git config remote.origin.url https://example.invalid/x
git config remote.origin.promisor true
git config extensions.partialclone origin`, "remote.origin.promisor"},
		{"ext transport", `git config remote.origin.url 'ext::sh -c touch% /tmp/x'`, "remote.origin.url"},
		{"merge driver", `git config merge.x.driver /bin/false`, "merge.x.driver"},
		{"alternate refs command", `git config core.alternateRefsCommand /bin/false`, "core.alternaterefscommand"},
		{"worktree config", `git config extensions.worktreeConfig true
git config --worktree core.pager /bin/false`, "core.pager"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo := filepath.Join(root, "repo")
			out := run(t, root, baseEnv(home), `set -e
git init -q repo && cd repo
git config user.email a@b.c && git config user.name a
printf 'one\n' > f.txt && git add f.txt && git commit -qm one
`+c.script+`
echo ok`)
			if !strings.HasSuffix(strings.TrimSpace(out), "ok") {
				t.Fatalf("fixture: %s", out)
			}
			got, ok := risky(fsfacts.Disk{Home: home}, repo)
			if !contains(got, c.key) && ok {
				t.Errorf("facts report %q, want %s", got, c.key)
			}
			cc := policy.CommandContext{Cwd: repo, Home: home, Facts: fsfacts.Disk{Home: home}}
			for _, cmd := range []string{"git diff", "git log -p", "git show", "git status", "git cat-file -p HEAD:f.txt", "git ls-tree -r HEAD", "git rev-list --objects HEAD", "git blame f.txt"} {
				if d := decide(e, cmd, cc); d.Decision == policy.Allow {
					t.Errorf("%q allowed", cmd)
				}
			}
		})
	}
	// an embedded bare repository a clone delivers: reads run inside it
	// use its configuration
	{
		root := t.TempDir()
		out := run(t, root, baseEnv(home), `set -e
git init -q repo && cd repo && git config user.email a@b.c && git config user.name a
echo x > f && git add f && git commit -qm 1
git clone -q --bare . inner.git && git --git-dir=inner.git config core.pager /bin/false
touch inner.git/refs/.keep inner.git/objects/.keep
git add inner.git && git commit -qm inner && echo ok`)
		if !strings.HasSuffix(strings.TrimSpace(out), "ok") {
			t.Fatalf("fixture: %s", out)
		}
		clone := filepath.Join(root, "clone")
		run(t, root, baseEnv(home), "git clone -q repo clone")
		inner := filepath.Join(clone, "inner.git")
		listed, _ := exec.Command("git", "-C", inner, "config", "--list").Output()
		if !strings.Contains(string(listed), "core.pager=") {
			t.Fatalf("git does not read the embedded repository's configuration:\n%s", listed)
		}
		cc := policy.CommandContext{Cwd: clone, Home: home, Facts: fsfacts.Disk{Home: home}}
		for _, cmd := range []string{"cd inner.git && git log -p", "git -C inner.git show", "cd inner.git/refs && git log -p"} {
			if d := decide(e, cmd, cc); d.Decision == policy.Allow {
				t.Errorf("%q allowed in an embedded bare repository configuring a pager", cmd)
			}
		}
	}
	// a plain repository with a clean submodule stays allowed
	root := t.TempDir()
	run(t, root, baseEnv(home), `set -e
git init -q sub && cd sub && git config user.email a@b.c && git config user.name a && echo x > x && git add x && git commit -qm 1 && cd ..
git init -q repo && cd repo && git config user.email a@b.c && git config user.name a
git -c protocol.file.allow=always submodule add -q ../sub sub && git commit -qm sub`)
	repo := filepath.Join(root, "repo")
	if got, ok := risky(fsfacts.Disk{Home: home}, repo); !ok || len(got) != 0 {
		t.Errorf("plain repository with a submodule: %q %v", got, ok)
	}
	if got, ok := risky(fsfacts.Disk{}, t.TempDir()); !ok || len(got) != 0 {
		t.Errorf("outside a repository: %q %v", got, ok)
	}
}

// risky are the keys of the settings the disk reports for the repository
// in dir that the base says make a read unsafe (a submodule's core.worktree
// inside the superproject excepted), and the hooks.
func risky(d fsfacts.Disk, dir string) ([]string, bool) {
	r, ok := d.GitRepo(dir)
	var out []string
	for _, s := range r.Settings {
		if cmdbase.GitConfigRisk(s.Key, s.Value) == "" || s.Key == "core.worktree" && s.Submodule != "" && s.Inside {
			continue
		}
		if s.Submodule != "" {
			out = append(out, "submodule "+s.Submodule+": "+s.Key)
		} else {
			out = append(out, s.Key)
		}
	}
	for _, h := range r.Hooks {
		out = append(out, "hook "+h)
	}
	return out, ok
}
