package hosts

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/sandbox"
)

func terminalConfig() config.Terminal {
	return config.Terminal{Providers: map[string]config.HostSpec{
		"box":  {Type: "ssh", Host: "box.example", User: "me", Port: 2222},
		"dev":  {Type: "container", Image: "alpine:3"},
		"safe": {Type: "sandbox", AllowNetwork: true},
		"here": {Type: "local"},
	}}
}

func TestResolveAndList(t *testing.T) {
	tc := terminalConfig()
	if got := strings.Join(Names(tc), ","); got != "box,dev,here,local,safe,sandbox" {
		t.Fatalf("names %s", got)
	}
	if s, err := Resolve(tc, "sandbox"); err != nil || s.Type != "sandbox" {
		t.Fatalf("built-in sandbox: %+v %v", s, err)
	}
	if _, err := Resolve(tc, "nope"); err == nil || !strings.Contains(err.Error(), "box, dev") {
		t.Fatalf("unknown: %v", err)
	}
	var got []string
	for _, i := range List(tc, "box") {
		a := ""
		if i.Active {
			a = "*"
		}
		got = append(got, a+i.Name+"/"+string(i.Isolation)+"/"+i.Detail)
	}
	want := "*box/remote/me@box.example:2222|dev/container/image alpine:3|here/none/this machine, no isolation|local/none/this machine, no isolation|safe/sandbox/this machine, sandboxed, network on|sandbox/sandbox/this machine, sandboxed, network off"
	if strings.Join(got, "|") != want {
		t.Fatalf("list:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}

func TestNew(t *testing.T) {
	tc := terminalConfig()
	env := Env{LaunchDir: t.TempDir(), Home: t.TempDir(), Shell: "auto", Getenv: func(k string) string {
		if k == "USER" {
			return "tester"
		}
		return ""
	}}
	for name, iso := range map[string]host.Isolation{"box": host.IsolationRemote, "dev": host.IsolationContainer, "here": host.IsolationNone, "local": host.IsolationNone} {
		s, _ := Resolve(tc, name)
		h, err := New(name, s, env)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if h.Name() != name || h.Isolation() != iso {
			t.Errorf("%s: name %s isolation %s", name, h.Name(), h.Isolation())
		}
		if Describe(h) == "" {
			t.Errorf("%s: no description", name)
		}
		h.Close()
	}
	if _, err := New("x", config.HostSpec{Type: "vm"}, env); err == nil {
		t.Error("unknown type accepted")
	}
	if _, err := New("x", config.HostSpec{Type: "container"}, env); err == nil {
		t.Error("container without image or container accepted")
	}
}

func TestNewSandbox(t *testing.T) {
	env := Env{LaunchDir: t.TempDir(), Home: t.TempDir(), ConfigDir: t.TempDir()}
	h, err := New("sandbox", config.HostSpec{Type: "sandbox"}, env)
	if errors.Is(err, sandbox.ErrUnavailable) {
		t.Skipf("no sandbox here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.Isolation() != host.IsolationSandbox {
		t.Fatalf("isolation %s", h.Isolation())
	}
	sb := h.(*sandbox.Host)
	found := false
	for _, p := range sb.Layout().Hidden {
		if strings.HasPrefix(p, env.ConfigDir) || p == env.ConfigDir {
			found = true
		}
	}
	if !found {
		t.Errorf("nb's config directory is not hidden: %v", sb.Layout().Hidden)
	}
	// An unavailable mechanism is an error, never a fallback to none.
	_, err = New("sandbox", config.HostSpec{Type: "sandbox", Mechanism: "nope"}, env)
	if err == nil {
		t.Error("unknown mechanism accepted")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ex, err := h.Run(ctx, &host.Command{Script: "true", Dir: env.LaunchDir})
	if err != nil || ex.Code != 0 {
		t.Fatalf("run: %+v %v", ex, err)
	}
}
