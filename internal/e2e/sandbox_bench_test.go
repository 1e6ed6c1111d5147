package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/testenv"
)

// BenchmarkToolRunTrue runs `nb tool run_cmd '{"command":"true"}'`, a
// whole nb process, alternately with what nb allows by itself run in the
// read-only sandbox (the default) and unsandboxed
// (terminal.readOnlySandbox.enabled false), so that load on the machine
// affects both alike, and reports their medians and the difference
// (target: the sandbox adds under 10 ms). Runs are 150 ms apart.
func BenchmarkToolRunTrue(b *testing.B) {
	exe, err := exec.LookPath("nb")
	if err != nil {
		b.Fatal(err)
	}
	testenv.Tool(b, "bwrap")
	dir := b.TempDir()
	home := filepath.Join(dir, "home")
	off := filepath.Join(dir, "off.json")
	if err := os.WriteFile(off, []byte(`{"terminal": {"readOnlySandbox": {"enabled": false}}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/.config", "XDG_STATE_HOME=" + home + "/.local/state"}
	run := func(args ...string) time.Duration {
		cmd := exec.Command(exe, append(args, "tool", "run_cmd", `{"command":"true"}`)...)
		cmd.Dir, cmd.Env = dir, env
		// each run starts on a quiet machine: an unsandboxed run's guard
		// scans the processes for 100 ms after nb exits (host/guard),
		// which would otherwise land on the next, sandboxed, run
		time.Sleep(150 * time.Millisecond)
		st := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		return time.Since(st)
	}
	run() // the first run builds nothing, but warms the caches
	var plain, sandboxed []time.Duration
	for b.Loop() {
		plain = append(plain, run("--config", off))
		sandboxed = append(sandboxed, run())
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	slices.Sort(plain)
	slices.Sort(sandboxed)
	p, s := plain[len(plain)/2], sandboxed[len(sandboxed)/2]
	b.ReportMetric(ms(p), "unsandboxed-median-ms")
	b.ReportMetric(ms(s), "sandboxed-median-ms")
	b.ReportMetric(ms(s-p), "added-median-ms")
	b.ReportMetric(ms(sandboxed[0]-plain[0]), "added-min-ms")
}
