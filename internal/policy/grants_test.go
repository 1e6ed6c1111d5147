package policy

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGrantsPersistPerProject(t *testing.T) {
	state := t.TempDir()
	proj := t.TempDir()
	mk := func(launch string) *Engine {
		return newEngine(t, func(o *Options) { o.StateDir = state; o.LaunchDir = launch })
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
	// The file lives in the state directory, never in the project tree.
	path := e.GrantsPath()
	if !strings.HasPrefix(path, state) || strings.HasPrefix(path, proj) {
		t.Fatalf("grants at %s", path)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	var data grantsFileData
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &data); err != nil || data.Version != 1 || len(data.Rules) != 2 {
		t.Fatalf("file %s: %v", b, err)
	}
	// A new engine for the same project sees them; another project does not.
	if got := mk(proj).Command("make test", testCC); got.Decision != Allow {
		t.Errorf("reloaded: %s", got.Decision)
	}
	if got := mk(t.TempDir()).Command("make test", testCC); got.Decision != Ask {
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

func TestCorruptGrantsFile(t *testing.T) {
	state, proj := t.TempDir(), t.TempDir()
	path := grantsFile(state, proj)
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte("{not json"), 0o600)
	o := OptionsFromConfig(nil)
	o.StateDir, o.LaunchDir = state, proj
	if _, err := New(o); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("err %v", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.StateDir = t.TempDir(); o.LaunchDir = "/p" })
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
