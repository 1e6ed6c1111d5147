package policy

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// memGrants is a GrantStore per project name, in memory.
type memGrants struct {
	files map[string][]string
	name  string
	saves int
}

func (m *memGrants) Load() ([]string, error) { return m.files[m.name], nil }
func (m *memGrants) Save(rules []string) error {
	m.files[m.name] = append([]string(nil), rules...)
	m.saves++
	return nil
}

func TestGrantsPersistPerProject(t *testing.T) {
	files := map[string][]string{}
	proj := "proj"
	mk := func(launch string) *Engine {
		return newEngine(t, func(o *Options) { o.Grants = &memGrants{files: files, name: launch} })
	}
	e := mk(proj)
	d := decideCmd(e, "git status && make test", testCC)
	if d.Decision != Allow && d.Rule != "make test" {
		t.Fatalf("rule %q", d.Rule)
	}
	d = decideCmd(e, "make test && docker build -t x .", testCC)
	if d.Decision != Ask || d.Rule != "make test\ndocker build *" || !d.OfferAlways {
		t.Fatalf("%s rule %q", d.Decision, d.Rule)
	}
	if err := e.Grant(d, ScopeProject); err != nil {
		t.Fatal(err)
	}
	if got := decideCmd(e, "docker build . && make test", testCC); got.Decision != Allow || got.DecidedBy != "grant" {
		t.Fatalf("after grant: %s by %s", got.Decision, got.DecidedBy)
	}
	if got := decideCmd(e, "docker rm x", testCC); got.Decision != Ask {
		t.Fatalf("docker rm: %s", got.Decision)
	}
	if len(files[proj]) != 2 {
		t.Fatalf("saved %q", files[proj])
	}
	// A new engine for the same project sees them; another project does not.
	if got := decideCmd(mk(proj), "make test", testCC); got.Decision != Allow {
		t.Errorf("reloaded: %s", got.Decision)
	}
	if got := decideCmd(mk("other"), "make test", testCC); got.Decision != Ask {
		t.Errorf("other project: %s", got.Decision)
	}
	e2 := mk(proj)
	if gs := e2.Grants(); len(gs) != 2 || gs[0].Scope != ScopeProject {
		t.Fatalf("grants %+v", gs)
	}
	if err := e2.Revoke(Grant{Rule: "make test", Scope: ScopeProject}); err != nil {
		t.Fatal(err)
	}
	if got := decideCmd(mk(proj), "make test", testCC); got.Decision != Ask {
		t.Errorf("after revoke: %s", got.Decision)
	}
	if err := e2.Revoke(Grant{Rule: "make test", Scope: ScopeProject}); err == nil {
		t.Error("second revoke succeeded")
	}
}

func TestSessionGrantsAndRefusals(t *testing.T) {
	e := newEngine(t, nil)
	d := decideCmd(e, "go test ./...", testCC)
	if err := e.Grant(d, ScopeSession); err != nil {
		t.Fatal(err)
	}
	if got := decideCmd(e, "go test -run X ./x", testCC); got.Decision != Allow {
		t.Errorf("session grant: %s", got.Decision)
	}
	if gs := e.Grants(); len(gs) != 1 || gs[0] != (Grant{Rule: "go test *", Scope: ScopeSession}) {
		t.Errorf("grants %+v", gs)
	}
	if err := e.Revoke(Grant{Rule: "go test *", Scope: ScopeSession}); err != nil {
		t.Fatal(err)
	}
	if got := decideCmd(e, "go test ./...", testCC); got.Decision != Ask {
		t.Errorf("after revoke: %s", got.Decision)
	}
	for _, cmd := range []string{"rm -rf x", "echo x > f", "bash -c \"$X\"", "python3 -c 'import os'", "$X"} {
		if err := e.Grant(decideCmd(e, cmd, testCC), ScopeSession); err == nil {
			t.Errorf("%q granted", cmd)
		}
	}
}

type failingGrants struct{ err error }

func (f failingGrants) Load() ([]string, error) { return nil, f.err }
func (f failingGrants) Save([]string) error     { return f.err }

// A store that cannot load fails the engine; one that cannot save fails
// the grant with its reason, and the rule is not granted.
func TestGrantStoreErrors(t *testing.T) {
	o := OptionsFromConfig(nil)
	o.Grants = failingGrants{errors.New("read grants /x: bad")}
	if _, err := New(o); err == nil || !strings.Contains(err.Error(), "/x") {
		t.Fatalf("err %v", err)
	}
	e := newEngine(t, func(o *Options) { o.Grants = struct{ GrantStore }{noSave{}} })
	d := decideCmd(e, "make test", testCC)
	if err := e.Grant(d, ScopeProject); err == nil || !strings.Contains(err.Error(), "HOME is not set") {
		t.Fatalf("grant without a state directory: %v", err)
	}
	if got := decideCmd(e, "make test", testCC); got.Decision != Ask {
		t.Errorf("refused grant applies: %s", got.Decision)
	}
}

type noSave struct{}

func (noSave) Load() ([]string, error) { return nil, nil }
func (noSave) Save([]string) error     { return errors.New("grants cannot be saved: HOME is not set") }

func TestConcurrentUse(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Grants = &memGrants{files: map[string][]string{}, name: "/p"} })
	done := make(chan struct{})
	for i := 0; i < 4; i++ {
		go func(i int) {
			defer func() { done <- struct{}{} }()
			for j := 0; j < 50; j++ {
				d := decideCmd(e, fmt.Sprintf("git sub%d %d", i, j), testCC)
				if err := e.Grant(d, Scope(j%2)); err != nil {
					t.Error(err)
					return
				}
				e.Grants()
				e.SetHeadless(j%3 == 0)
			}
		}(i)
	}
	for i := 0; i < 4; i++ {
		<-done
	}
	if n := len(e.Grants()); n != 8 {
		t.Errorf("%d grants, want 8 (one narrow rule per tool and scope)", n)
	}
}

func TestAlwaysShapes(t *testing.T) {
	e := newEngine(t, nil)
	cases := map[string]string{
		"python3 manage.py migrate":        "python3 manage.py migrate *",
		"python3 manage.py migrate --fake": "python3 manage.py migrate *",
		"python3 -m pytest -x tests":       "python3 -m pytest *",
		"node scripts/build.js --prod":     "node scripts/build.js *",
		"bash scripts/ci.sh":               "bash scripts/ci.sh *",
		"bash -c 'make build'":             "make build",
		"sh -c 'make build && make test'":  "make build\nmake test",
	}
	for cmd, want := range cases {
		d := decideCmd(e, cmd, testCC)
		if d.Rule != want || !d.OfferAlways {
			t.Errorf("%q: rule %q always %v, want %q", cmd, d.Rule, d.OfferAlways, want)
		}
	}
	for _, cmd := range []string{"python3 -c 'import os'", "python3", "node -e 1", "bash -c \"$X\"", "python3 - < x.py", "bash -c 'make' x y"} {
		if d := decideCmd(e, cmd, testCC); d.OfferAlways && !strings.Contains(d.Rule, "make") {
			t.Errorf("%q offers Always %q", cmd, d.Rule)
		}
	}
	// what the grants then approve
	if err := e.Grant(decideCmd(e, "make build", testCC), ScopeSession); err != nil {
		t.Fatal(err)
	}
	if err := e.Grant(decideCmd(e, "python3 manage.py migrate", testCC), ScopeSession); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"bash -c 'make build'", "sh -c 'make build && ls'", "bash -ec 'make build'", "python3 manage.py migrate app 0002",
		"bash -c 'bash -c \"make build\"'"} {
		if d := decideCmd(e, cmd, testCC); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	for _, cmd := range []string{"bash -c 'make build; make deploy'", "bash -c 'make build' x", "bash -ic 'make build'", "python3 manage.py shell",
		"echo 'import os' | python3 manage.py migrate", "python3 manage.py migrate <<< 'x'", "bash -c 'make build > /etc/x'",
		"python3 ../manage.py migrate", "bash --rcfile x -c 'make build'", "bash -c 'make build' | sh"} {
		if d := decideCmd(e, cmd, testCC); d.Decision == Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
	// zsh and fish read the script in another language
	for _, cmd := range []string{`zsh -c 'ls *(e:"touch x":)'`, "fish -c 'ls (id)'", "find -files0-from list -exec cat {} +"} {
		if d := decideCmd(e, cmd, testCC); d.Decision == Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
	if d := decideCmd(e, "bash -c 'ls -la'", testCC); d.Decision != Allow || d.DecidedBy != "safe-list" {
		t.Errorf("bash -c 'ls -la': %s %q", d.Decision, d.Reasons)
	}
}
