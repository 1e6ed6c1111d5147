package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestGrantsFile(t *testing.T) {
	state, proj := t.TempDir(), t.TempDir()
	g := ProjectGrants(state, proj)
	if !strings.HasPrefix(g.Path, state+string(filepath.Separator)) || strings.HasPrefix(g.Path, proj) {
		t.Fatalf("grants at %s", g.Path)
	}
	if rules, err := g.Load(); err != nil || rules != nil {
		t.Fatalf("missing file: %q %v", rules, err)
	}
	want := []string{"make test", "docker ps *"}
	if err := g.Save(want); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(g.Path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("stat %v %v", st, err)
	}
	if rules, err := ProjectGrants(state, proj).Load(); err != nil || !slices.Equal(rules, want) {
		t.Fatalf("reloaded %q %v", rules, err)
	}
	if rules, _ := ProjectGrants(state, t.TempDir()).Load(); rules != nil {
		t.Errorf("another project sees %q", rules)
	}
	os.WriteFile(g.Path, []byte("{not json"), 0o600)
	if _, err := g.Load(); err == nil || !strings.Contains(err.Error(), g.Path) {
		t.Errorf("corrupt file: %v", err)
	}
}

func TestNoGrantsSaysWhy(t *testing.T) {
	n := NoGrants{Reason: ErrNoStateDir}
	if rules, err := n.Load(); rules != nil || err != nil {
		t.Fatal(rules, err)
	}
	if err := n.Save([]string{"x"}); !errors.Is(err, ErrNoStateDir) || !strings.Contains(err.Error(), "HOME") {
		t.Errorf("save: %v", err)
	}
}

func TestStateDirNeverRelative(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/nb"},
		{map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/xdg"}, "/xdg/nb"},
		{map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "state"}, "/home/u/.local/state/nb"},
		{map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "./s"}, "/home/u/.local/state/nb"},
		{map[string]string{"XDG_STATE_HOME": "/xdg"}, "/xdg/nb"},
		{map[string]string{}, ""},
		{map[string]string{"HOME": ""}, ""},
		{map[string]string{"HOME": "home"}, ""},
		{map[string]string{"HOME": "", "XDG_STATE_HOME": "rel"}, ""},
	} {
		got, err := StateDir(func(k string) string { return c.env[k] })
		if got != c.want || (c.want == "") != errors.Is(err, ErrNoStateDir) {
			t.Errorf("%v: %q %v, want %q", c.env, got, err, c.want)
		}
	}
}
