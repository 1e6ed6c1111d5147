package sandbox

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/proctest"
)

// Confine binds a decision to where its command runs: the read-only
// sandbox for what the safe list allowed, the host itself for what the
// user allowed (unless Approved) and for hosts that are not this machine
// unsandboxed.
func TestGuardConfine(t *testing.T) {
	proctest.Check(t)
	mechanisms(t)
	w := newWorld(t)
	local := &host.Local{}
	defer local.Close()
	allow := func(by policy.Decider) *policy.Decision {
		return &policy.Decision{Decision: policy.Allow, DecidedBy: by}
	}
	ask := &policy.Decision{Decision: policy.Ask, DecidedBy: policy.ByUser}
	deny := &policy.Decision{Decision: policy.Deny, DecidedBy: policy.ByDenyRule}

	g := NewGuard(GuardOptions{LaunchDir: w.ws, Home: w.home})
	defer g.Close()
	if ok, line := g.Status(); !ok || !strings.Contains(line, "read-only sandbox") {
		t.Fatalf("status %v %q", ok, line)
	}
	s := g.Confine(allow(policy.BySafeList), local)
	if s.Isolation() != host.IsolationSandbox || len(g.built) != 0 {
		t.Fatalf("safe-list command not bound to the read-only sandbox, or the sandbox built at review: %T, %d built", s, len(g.built))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// It runs in the read-only sandbox over local, built when it runs.
	if ex, err := s.Run(ctx, &host.Command{Script: "echo x > " + w.ws + "/f", Dir: w.ws}); err != nil || ex.Code == 0 || !ex.Sandboxed {
		t.Fatalf("the write ran outside the read-only sandbox: %+v %v", ex, err)
	}
	sb := g.built[local]
	if sb == nil || sb.ro == nil || s.(interface{ Origin() host.Host }).Origin() != local {
		t.Fatalf("the sandbox over local: %v", sb)
	}
	if _, err := g.Confine(allow(policy.BySafeList), local).Run(ctx, &host.Command{Script: "true", Dir: w.ws}); err != nil || len(g.built) != 1 || g.built[local] != sb {
		t.Error("a second sandbox for the same host")
	}
	for _, d := range []*policy.Decision{allow(policy.ByRule), allow(policy.ByGrant), allow(policy.ByFlag), ask, deny, allow(policy.ByAction)} {
		if got := g.Confine(d, local); got != local {
			t.Errorf("%s %s: moved to %s", d.Decision, d.DecidedBy, got.Name())
		}
	}
	// A host that is a sandbox already (or another machine) stays.
	if got := g.Confine(allow(policy.BySafeList), sb); got != sb {
		t.Error("a sandbox was sandboxed again")
	}
	if got := g.Confine(allow(policy.BySafeList), s); got != s {
		t.Error("a bound sandbox was sandboxed again")
	}
	// The re-run outside goes to the host under it, left open.
	out := s.(interface{ Unsandboxed() host.Host }).Unsandboxed()
	if out.Isolation() != host.IsolationNone {
		t.Fatalf("outside: %s", out.Isolation())
	}
	_ = out.Close()
	if ex, err := local.Run(ctx, &host.Command{Script: "true", Dir: w.ws}); err != nil || ex.Code != 0 {
		t.Fatalf("the host under the sandbox was closed by the re-run: %v", err)
	}

	approved := NewGuard(GuardOptions{LaunchDir: w.ws, Home: w.home, Approved: true})
	defer approved.Close()
	for _, d := range []*policy.Decision{allow(policy.BySafeList), allow(policy.ByRule), allow(policy.ByGrant), allow(policy.ByFlag), ask} {
		if got := approved.Confine(d, local); got.Isolation() != host.IsolationSandbox {
			t.Errorf("approved: %s %s not sandboxed", d.Decision, d.DecidedBy)
		}
	}
	if got := approved.Confine(deny, local); got != local {
		t.Error("a denied command was bound to a sandbox")
	}

	off := NewGuard(GuardOptions{LaunchDir: w.ws, Home: w.home, Off: true})
	if got := off.Confine(allow(policy.BySafeList), local); got != local {
		t.Error("the switched-off guard sandboxed")
	}
	if ok, line := off.Status(); ok || !strings.Contains(line, "enabled is false") {
		t.Errorf("off status %v %q", ok, line)
	}
}

// A sandbox that cannot be built when first needed is told once, and the
// command then runs where it was decided.
func TestGuardFailureToldOnce(t *testing.T) {
	proctest.Check(t)
	w := newWorld(t)
	local := &host.Local{}
	defer local.Close()
	var warned []string
	g := NewGuard(GuardOptions{LaunchDir: w.ws, Home: w.home, Mechanism: MechanismBwrap, Bwrap: "/bin/false", Warn: func(m string) { warned = append(warned, m) }})
	defer g.Close()
	d := &policy.Decision{Decision: policy.Allow, DecidedBy: policy.BySafeList}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		ex, err := g.Confine(d, local).Run(ctx, &host.Command{Script: "echo x > " + w.ws + "/f" + strconv.Itoa(i), Dir: w.ws})
		if err != nil || ex.Code != 0 || ex.Sandboxed {
			t.Fatalf("the command did not run as decided when the sandbox failed: %+v %v", ex, err)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "the sandbox failed") || !strings.Contains(warned[0], "unsandboxed") {
		t.Errorf("warnings %q", warned)
	}
	if ok, line := g.Status(); ok || !strings.Contains(line, "failed") {
		t.Errorf("status %v %q", ok, line)
	}
	none := NewGuard(GuardOptions{LaunchDir: w.ws, Mechanism: MechanismBwrap, Bwrap: "/nonexistent/bwrap"})
	if ok, line := none.Status(); ok || !strings.Contains(line, "no sandbox here (bubblewrap is not installed)") {
		t.Errorf("status without bubblewrap %v %q", ok, line)
	}
	if got := none.Confine(d, local); got != local {
		t.Error("bound to a missing sandbox")
	}
}
