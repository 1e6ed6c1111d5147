package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/hosttest"
	"github.com/nb-cli/nb/internal/proctest"
	"github.com/nb-cli/nb/internal/testenv"
)

// roWorld adds to a world what the read-only profile hides and keeps:
// dot-entries of the home directory (a secret one, an unknown one, a
// visible one), a secret in the workspace and below a plain directory of
// home, and a tool on PATH below a hidden dot-entry.
func roWorld(t *testing.T) world {
	t.Helper()
	w := newWorld(t)
	files := map[string]string{
		"home/.bashrc":                      "export TOKEN=SECRET-BASHRC",
		"home/.unknownapp/state":            "SECRET-UNKNOWN-DOTDIR",
		"home/.config/gh/hosts.yml":         "oauth_token: SECRET-GH",
		"home/.config/git/ignore":           "visible-git-ignore",
		"home/Documents/notes.txt":          "visible-notes",
		"home/Documents/aws-credentials":    "SECRET-HOME-CREDENTIALS",
		"home/Documents/deploy/id_ed25519":  "SECRET-HOME-KEY",
		"ws/.env":                           "API_TOKEN=SECRET-WS-ENV",
		"ws/config/service-account.json":    "SECRET-WS-SA",
		"ws/src/code.txt":                   "visible-code",
		"home/.local/share/app/secret-data": "SECRET-LOCAL-SHARE",
	}
	for p, c := range files {
		p = filepath.Join(w.root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mustWrite(t, p, c)
	}
	tool := filepath.Join(w.home, ".local", "bin", "nbt-tool")
	if err := os.MkdirAll(filepath.Dir(tool), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tool, []byte("#!/bin/sh\necho tool-ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

func newROHost(t *testing.T, w world, mech string, env []string) *Host {
	t.Helper()
	o := Options{
		Mechanism: mech, LaunchDir: w.ws, Home: w.home, ReadOnly: true,
		Hidden: []string{filepath.Join(w.home, ".config", "nb")},
		Env:    env,
	}
	if mech == mechanismLandlockPlain {
		o.Mechanism, o.noNamespaces = MechanismLandlock, true
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	if mech == MechanismLandlock {
		requireNamespaces(t, h)
	}
	return h
}

// The read-only profile: nothing writable but the private temporary
// directory, HOME's dot-entries hidden but for the visible list and PATH,
// the secret-file list masked in the workspace and in home, no unix
// socket, no network, no host process, and an environment from the
// allow-list.
func TestReadOnlyProfile(t *testing.T) {
	proctest.Check(t)
	for _, mech := range withPlain(mechanisms(t)) {
		t.Run(mech, func(t *testing.T) {
			w := roWorld(t)
			env := append(os.Environ(), "PATH="+filepath.Join(w.home, ".local", "bin")+":"+os.Getenv("PATH"),
				"HOME="+w.home, "NBT_PLAIN_VAR=canary-not-allowed", "GITHUB_TOKEN=canary-token", "LC_NBT=kept-by-glob")
			h := newROHost(t, w, mech, env)

			out, errs, code := sh(t, h, w.ws, "cat src/code.txt "+w.home+"/Documents/notes.txt "+w.home+"/.config/git/ignore; echo; nbt-tool; echo t > $TMPDIR/t && cat $TMPDIR/t")
			if code != 0 || out != "visible-codevisible-notesvisible-git-ignore\ntool-ran\nt\n" {
				t.Fatalf("what must stay readable: code %d out %q err %q", code, out, errs)
			}
			t.Run("nothing writable", func(t *testing.T) {
				_, _, code := sh(t, h, w.ws, "echo x > new.txt; echo x >> src/code.txt; mkdir d; rm -f .env; echo x > "+w.outside+"/evil; echo x > "+w.home+"/Documents/evil")
				if code == 0 {
					t.Error("exit 0")
				}
				for _, p := range []string{filepath.Join(w.ws, "new.txt"), filepath.Join(w.ws, "d"), filepath.Join(w.outside, "evil"), filepath.Join(w.home, "Documents", "evil")} {
					noFile(t, p)
				}
				if b, _ := os.ReadFile(filepath.Join(w.ws, "src", "code.txt")); string(b) != "visible-code" {
					t.Errorf("workspace file changed: %q", b)
				}
				if _, err := os.Stat(filepath.Join(w.ws, ".env")); err != nil {
					t.Error(".env removed")
				}
			})
			t.Run("no metadata changed", func(t *testing.T) {
				// Landlock does not govern a file's mode, owner, times
				// or extended attributes: the filter refuses them there.
				code := filepath.Join(w.ws, "src", "code.txt")
				docs := filepath.Join(w.home, "Documents")
				before := map[string]os.FileInfo{}
				for _, p := range []string{code, docs} {
					fi, err := os.Stat(p)
					if err != nil {
						t.Fatal(err)
					}
					before[p] = fi
				}
				sh(t, h, w.ws, "chmod 0777 "+code+"; chmod 0700 "+docs+"; touch -d 2001-01-01 "+code+"; chown 0:0 "+code)
				for p, b := range before {
					a, err := os.Stat(p)
					if err != nil || a.Mode() != b.Mode() || !a.ModTime().Equal(b.ModTime()) {
						t.Errorf("%s changed from the sandbox: %v %v → %v %v (%v)", p, b.Mode(), b.ModTime(), a.Mode(), a.ModTime(), err)
					}
				}
			})
			t.Run("secrets", func(t *testing.T) {
				paths := []string{".bashrc", ".unknownapp/state", ".config/gh/hosts.yml", "Documents/aws-credentials", "Documents/deploy/id_ed25519", ".local/share/app/secret-data", ".ssh/id_x", ".config/nb/config.json"}
				script := "cd " + w.home + "; cat " + strings.Join(paths, " ") + "; cat " + w.ws + "/.env " + w.ws + "/config/service-account.json; ls -la " + w.home + "/.unknownapp " + w.home + "/.ssh; grep -r SECRET " + w.home + " " + w.ws + "; env"
				out, errs, _ := sh(t, h, w.ws, script)
				if strings.Contains(out, "SECRET") || strings.Contains(out, "canary-") {
					t.Errorf("secret read in the read-only sandbox:\n%s", out)
				}
				if !strings.Contains(errs, "Permission denied") {
					t.Errorf("hidden files do not say they are refused: %s", errs)
				}
				if !strings.Contains(out, "LC_NBT=kept-by-glob") || !strings.Contains(out, "HOME="+w.home) {
					t.Errorf("allowed variables missing: %s", out)
				}
			})
			t.Run("refusals told", func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				for _, c := range []struct{ script, want string }{
					{"echo x > " + w.outside + "/f", "writing " + w.outside + "/f (read-only in the sandbox)"},
					{"echo x >> src/code.txt", "writing " + w.ws + "/src/code.txt (read-only in the sandbox)"},
					{"cat " + w.home + "/.bashrc", "reading " + w.home + "/.bashrc (hidden in the sandbox)"},
					{"cat .env", "reading " + w.ws + "/.env (hidden in the sandbox)"},
					{"exec bash -c 'echo > /dev/tcp/127.0.0.1/9'", "the network (off in the sandbox)"},
					// plain failures
					{"exit 3", ""},
					{"cat missing.txt", ""},
					{"ls /nonexistent-nb", ""},
					{"grep -q nothing src/code.txt", ""},
				} {
					ex, err := h.Run(ctx, &host.Command{Script: c.script, Dir: w.ws})
					if err != nil {
						t.Fatal(err)
					}
					if ex.Code == 0 || ex.Sandboxed != (c.want != "") || ex.SandboxReason != c.want {
						t.Errorf("%s: exit %d, sandboxed %v %q, want %q", c.script, ex.Code, ex.Sandboxed, ex.SandboxReason, c.want)
					}
				}
			})
			t.Run("private tmp", func(t *testing.T) {
				mark := fmt.Sprintf("nbt-ro-%d", time.Now().UnixNano())
				host := filepath.Join(os.TempDir(), mark+"-host")
				mustWrite(t, host, "SECRET-HOST-TMP")
				defer os.Remove(host)
				out, _, _ := sh(t, h, w.ws, "cat "+host+"; echo x > /tmp/"+mark+" 2>/dev/null; ls /tmp")
				if mech == mechanismLandlockPlain {
					// Landlock alone cannot keep names from a listing.
					out = strings.ReplaceAll(out, mark+"-host", "")
				}
				if strings.Contains(out, "SECRET") || strings.Contains(out, mark+"-host") {
					t.Errorf("the host's /tmp is visible: %s", out)
				}
				noFile(t, filepath.Join("/tmp", mark))
			})
			t.Run("processes", func(t *testing.T) {
				canary := fmt.Sprintf("nbt-process-canary-%d", time.Now().UnixNano())
				p := exec.Command("sh", "-c", "exec -a "+canary+" sleep 30")
				p.Env = append(os.Environ(), "NBT_PROC="+canary)
				if err := p.Start(); err != nil {
					t.Fatal(err)
				}
				defer func() { _ = p.Process.Kill(); _ = p.Wait() }()
				out, _, _ := sh(t, h, w.ws, "cat /proc/[0-9]*/cmdline /proc/[0-9]*/environ 2>/dev/null | tr '\\0' ' '; ps -eo pid,args 2>/dev/null")
				if mech == mechanismLandlockPlain {
					// Without namespaces the processes are listed; what
					// they hold (their environment) stays unreadable.
					out = strings.ReplaceAll(out, "exec -a "+canary, "")
					if strings.Contains(out, "NBT_PROC="+canary) {
						t.Errorf("a host process's environment was read: %s", out)
					}
					return
				}
				if strings.Contains(out, canary) {
					t.Errorf("a host process is visible: %s", out)
				}
			})
			t.Run("kernel keys", func(t *testing.T) {
				if !h.mountsTmp() {
					t.Skip("Landlock cannot hide one file of /proc: the filter refuses keyctl, the key lists show")
				}
				sessionKeysHidden(t, h, w.ws)
			})
			t.Run("unix socket under home", func(t *testing.T) {
				refusesUnixSocket(t, h, w.ws, filepath.Join(w.home, "Documents", "agent.sock"))
			})
			t.Run("socket families", func(t *testing.T) {
				testenv.Tool(t, "python3")
				// vsock reaches a virtual machine's host; packet sockets the
				// wire; netlink only reads the system's network state.
				script := `import errno, socket
for name in ("AF_VSOCK", "AF_PACKET", "AF_UNIX", "AF_INET", "AF_NETLINK"):
    try:
        socket.socket(getattr(socket, name), socket.SOCK_DGRAM if name != "AF_VSOCK" else socket.SOCK_STREAM).close()
        print(name, "ok")
    except OSError as e:
        print(name, errno.errorcode[e.errno])
`
				out, errs, _ := sh(t, h, w.ws, "python3 -c '"+script+"'")
				want := "AF_VSOCK EAFNOSUPPORT\nAF_PACKET EAFNOSUPPORT\nAF_UNIX EACCES\nAF_INET ENETUNREACH\nAF_NETLINK ok\n"
				if out != want {
					t.Errorf("socket families: %q %s, want %q", out, errs, want)
				}
			})
			t.Run("network off", func(t *testing.T) {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				_, errs, code := sh(t, h, w.ws, fmt.Sprintf("exec bash -c 'echo hi > /dev/tcp/127.0.0.1/%d'", ln.Addr().(*net.TCPAddr).Port))
				if code == 0 || !strings.Contains(errs, "Network is unreachable") {
					t.Errorf("connect: code %d, %q", code, errs)
				}
			})
		})
	}
}

// The read-only profile passes the conformance suite of every host.
func TestReadOnlyConformance(t *testing.T) {
	for _, mech := range mechanisms(t) {
		t.Run(mech, func(t *testing.T) {
			hosttest.Run(t, func(t *testing.T, dir string) host.Host {
				h, err := New(Options{Mechanism: mech, LaunchDir: dir, Home: t.TempDir(), ReadOnly: true})
				if err != nil {
					t.Fatal(err)
				}
				return h
			})
		})
	}
}

// A command the timeout ends inside the read-only sandbox leaves nothing
// behind: not its background children, one in a session of its own, one
// that ignores SIGTERM, nor one writing a flood of output.
func TestReadOnlyTimeoutLeavesNothing(t *testing.T) {
	proctest.Check(t)
	for _, mech := range withPlain(mechanisms(t)) {
		t.Run(mech, func(t *testing.T) {
			w := roWorld(t)
			h := newROHost(t, w, mech, append(os.Environ(), "HOME="+w.home))
			var out strings.Builder
			ex, err := h.Run(context.Background(), &host.Command{
				Script: "sleep 300 & setsid sleep 301 & (trap '' TERM; sleep 302) & yes | head -c 5000000; sleep 303",
				Dir:    w.ws, Timeout: 2 * time.Second, Stdout: &out,
			})
			if err != nil || !ex.TimedOut || ex.Code == 0 || out.Len() != 5000000 {
				t.Fatalf("%v: exit %+v, %d bytes of output", err, ex, out.Len())
			}
		})
	}
}

// TestReadOnlyIndexKept: what a command's layout walked is kept for the
// next process (written once the view was handed over), by every
// mechanism, and a host closed at once still keeps it.
func TestReadOnlyIndexKept(t *testing.T) {
	for _, mech := range mechanisms(t) {
		t.Run(mech, func(t *testing.T) {
			w := roWorld(t)
			index := filepath.Join(t.TempDir(), "sandbox-index")
			h, err := New(Options{Mechanism: mech, LaunchDir: w.ws, Home: w.home, ReadOnly: true, Index: index, Env: os.Environ()})
			if err != nil {
				t.Fatal(err)
			}
			if _, _, code := sh(t, h, w.ws, "true"); code != 0 {
				t.Fatalf("true: exit %d", code)
			}
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			ix := loadIndex(index)
			if len(ix.Trees) == 0 {
				t.Fatalf("no walk kept in %s", index)
			}
		})
	}
}
