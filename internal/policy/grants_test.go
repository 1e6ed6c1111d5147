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
	d := e.Command("git status && make test", testCC)
	if d.Decision != Allow && d.Rule != "make test" {
		t.Fatalf("rule %q", d.Rule)
	}
	d = e.Command("make test && docker build -t x .", testCC)
	if d.Decision != Ask || d.Rule != "make test\ndocker build *" || !d.OfferAlways {
		t.Fatalf("%s rule %q", d.Decision, d.Rule)
	}
	if err := e.Grant(d, ScopeProject); err != nil {
		t.Fatal(err)
	}
	if got := e.Command("docker build . && make test", testCC); got.Decision != Allow || got.DecidedBy != "grant" {
		t.Fatalf("after grant: %s by %s", got.Decision, got.DecidedBy)
	}
	if got := e.Command("docker rm x", testCC); got.Decision != Ask {
		t.Fatalf("docker rm: %s", got.Decision)
	}
	if len(files[proj]) != 2 {
		t.Fatalf("saved %q", files[proj])
	}
	// A new engine for the same project sees them; another project does not.
	if got := mk(proj).Command("make test", testCC); got.Decision != Allow {
		t.Errorf("reloaded: %s", got.Decision)
	}
	if got := mk("other").Command("make test", testCC); got.Decision != Ask {
		t.Errorf("other project: %s", got.Decision)
	}
	e2 := mk(proj)
	if gs := e2.Grants(); len(gs) != 2 || gs[0].Scope != ScopeProject {
		t.Fatalf("grants %+v", gs)
	}
	if err := e2.Revoke(Grant{Rule: "make test", Scope: ScopeProject}); err != nil {
		t.Fatal(err)
	}
	if got := mk(proj).Command("make test", testCC); got.Decision != Ask {
		t.Errorf("after revoke: %s", got.Decision)
	}
	if err := e2.Revoke(Grant{Rule: "make test", Scope: ScopeProject}); err == nil {
		t.Error("second revoke succeeded")
	}
}

func TestSessionGrantsAndRefusals(t *testing.T) {
	e := newEngine(t, nil)
	d := e.Command("go test ./...", testCC)
	if err := e.Grant(d, ScopeSession); err != nil {
		t.Fatal(err)
	}
	if got := e.Command("go test -run X ./x", testCC); got.Decision != Allow {
		t.Errorf("session grant: %s", got.Decision)
	}
	if gs := e.Grants(); len(gs) != 1 || gs[0] != (Grant{Rule: "go test *", Scope: ScopeSession}) {
		t.Errorf("grants %+v", gs)
	}
	if err := e.Revoke(Grant{Rule: "go test *", Scope: ScopeSession}); err != nil {
		t.Fatal(err)
	}
	if got := e.Command("go test ./...", testCC); got.Decision != Ask {
		t.Errorf("after revoke: %s", got.Decision)
	}
	for _, cmd := range []string{"rm -rf x", "echo x > f", "bash -c make", "$X"} {
		if err := e.Grant(e.Command(cmd, testCC), ScopeSession); err == nil {
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
	d := e.Command("make test", testCC)
	if err := e.Grant(d, ScopeProject); err == nil || !strings.Contains(err.Error(), "HOME is not set") {
		t.Fatalf("grant without a state directory: %v", err)
	}
	if got := e.Command("make test", testCC); got.Decision != Ask {
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
				d := e.Command(fmt.Sprintf("git sub%d %d", i, j), testCC)
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
