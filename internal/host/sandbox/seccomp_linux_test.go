package sandbox

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/proctest"
)

// The kernel features the command filter withholds, tried from inside
// every mechanism and both profiles by a real program (the probe), in a
// plain run and in a terminal session: each must fail with the errno the
// filter gives it. Outside, the same probe shows that io_uring, the
// keyrings and user namespaces work here, so the test proves something.
// Removing any entry of denied, the clone or ioctl rule, or the filter
// itself fails it.
func TestCommandFilterWithholds(t *testing.T) {
	proctest.Check(t)
	want := map[string]string{
		"io_uring_setup": "ENOSYS", "keyctl": "ENOSYS", "add_key": "ENOSYS", "unshare-user": "EPERM",
		"clone-newuser": "EPERM", "bpf": "ENOSYS", "perf_event_open": "ENOSYS", "userfaultfd": "ENOSYS",
		"ptrace": "EPERM", "mount": "EPERM", "tiocsti": "EPERM",
	}
	w := roWorld(t)
	probe := probeBinary(t, w.root)
	outside := probeRun(t, &host.Local{}, w.ws, probe, false)
	for _, k := range []string{"io_uring_setup", "keyctl", "clone-newuser", "tiocsti"} {
		if outside[k] != "ok" {
			t.Logf("%s fails outside the sandbox too (%s): the control proves less here", k, outside[k])
		}
	}
	for _, mech := range withPlain(mechanisms(t)) {
		for _, ro := range []bool{true, false} {
			name := mech + "/workspace"
			var h *Host
			if ro {
				name = mech + "/read-only"
				h = newROHost(t, w, mech, nil)
			} else {
				h = newHost(t, w, mech, false)
			}
			t.Run(name, func(t *testing.T) {
				for _, terminal := range []bool{false, true} {
					got := probeRun(t, h, w.ws, probe, terminal)
					for k, v := range want {
						if k == "tiocsti" && !terminal && got[k] == "EACCES" {
							continue // Landlock gives a plain run no terminal ioctls at all
						}
						if got[k] != v {
							t.Errorf("%s: %q in the sandbox (terminal %v), want %s", k, got[k], terminal, v)
						}
					}
				}
			})
		}
	}
}

// probeRun runs the probe's system calls on h, in a plain run or in a
// terminal session, and returns name → result.
func probeRun(t *testing.T, h host.Host, dir, probe string, terminal bool) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	target := filepath.Join(t.TempDir(), "mnt")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	script := probe + " " + probeArg + " syscalls " + target
	var out string
	if terminal {
		term, err := h.StartPTY(ctx, &host.PTYCommand{Script: script + "; echo probe-end", Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(term)
		<-term.Done()
		term.Close()
		out = strings.ReplaceAll(string(b), "\r", "")
		if !strings.Contains(out, "probe-end") {
			t.Fatalf("probe in a terminal: %q", out)
		}
	} else {
		var o, e strings.Builder
		ex, err := h.Run(ctx, &host.Command{Script: script, Dir: dir, Stdout: &o, Stderr: &e})
		if err != nil || ex.Code != 0 {
			t.Fatalf("probe: %v %+v %s %s", err, ex, o.String(), e.String())
		}
		out = o.String()
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if k, v, ok := strings.Cut(line, " "); ok {
			m[k] = v
		}
	}
	return m
}
