package ptysession

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// hostile are escape sequences whose parameters ask a terminal for work far
// out of proportion to their length.
var hostile = map[string]string{
	"repeat":         "a\x1b[999999999b",
	"insert-lines":   "\x1b[999999999L",
	"delete-lines":   "\x1b[999999999M",
	"scroll-up":      "\x1b[999999999S",
	"scroll-down":    "\x1b[999999999T",
	"insert-chars":   "\x1b[999999999@",
	"erase-chars":    "\x1b[999999999X",
	"tab-forward":    "\x1b[999999999I",
	"cursor-move":    "\x1b[999999999;999999999H\x1b[999999999A\x1b[999999999C",
	"line-feeds":     strings.Repeat("x\n", 8),
	"many-params":    "\x1b[" + strings.Repeat("999999999;", 40) + "b",
	"combining-mark": "e" + strings.Repeat("\u0301", 16),
	"plain-text":     "the quick brown fox jumps over the lazy dog ",
	"erase-display":  "\x1b[2J",
	"reset":          "\x1bc",
}

// TestEmulatorClampsCounts: a repeat count is clamped to the screen width,
// so `a ESC[1000b` fills one line and wraps once instead of filling the
// screen (with 999999999, costing minutes of CPU).
func TestEmulatorClampsCounts(t *testing.T) {
	emu := newEmulator(20, 5)
	if _, err := emu.Write([]byte("a\x1b[1000b")); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(emu.String(), "\n")
	if len(lines) < 3 {
		t.Fatalf("screen %q", emu.String())
	}
	if lines[0] != strings.Repeat("a", 20) || strings.TrimRight(lines[1], " ") != "a" || strings.TrimSpace(lines[2]) != "" {
		t.Fatalf("repeat not clamped to the width; screen:\n%s", emu.String())
	}
	// Counts that fit are left alone.
	emu = newEmulator(20, 5)
	_, _ = emu.Write([]byte("b\x1b[3b"))
	if got := strings.Split(emu.String(), "\n")[0]; strings.TrimRight(got, " ") != "bbbb" {
		t.Fatalf("small repeat changed: %q", got)
	}
	// Sub-parameters keep their flags: a colour still applies.
	emu = newEmulator(20, 5)
	_, _ = emu.Write([]byte("\x1b[38:2::1:2:3mX\x1b[0m"))
	if got := strings.Split(emu.String(), "\n")[0]; strings.TrimRight(got, " ") != "X" {
		t.Fatalf("SGR with sub-parameters: %q", got)
	}
}

// TestHostileSessionOutput: a program printing hostile sequences in a
// session does not hold up terminal_start, and the session stops promptly.
func TestHostileSessionOutput(t *testing.T) {
	m := newManager(t, fast)
	ctx := testCtx(t)
	var script strings.Builder
	script.WriteString("printf '")
	for _, seq := range hostile {
		script.WriteString(strings.ReplaceAll(strings.ReplaceAll(seq, "\x1b", `\033`), "\n", `\n`))
	}
	script.WriteString("'; echo; echo done")
	start := time.Now()
	out, err := m.Start(ctx, script.String(), "")
	if err != nil {
		t.Fatal(err)
	}
	for !out.Complete {
		if out, err = m.Continue(ctx, out.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("session did not finish within the test's deadline (%v)", time.Since(start))
	}
	if !strings.Contains(out.Text, "done") {
		t.Fatalf("output %q", out.Text)
	}
}

// BenchmarkHostileEscapes measures the screen emulator's cost of 1 MB of
// each hostile sequence repeated, fed in the 4 KiB pieces a terminal read
// returns (the worst case: output that trickles in slowly enough that the
// emulator never skips any).
func BenchmarkHostileEscapes(b *testing.B) {
	const size = 1 << 20
	for name, seq := range hostile {
		stream := bytes.Repeat([]byte(seq), size/len(seq)+1)[:size]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				emu := newEmulator(120, 40)
				go drainEmulator(emu)
				for p := stream; len(p) > 0; p = p[min(len(p), 4096):] {
					_, _ = emu.Write(p[:min(len(p), 4096)])
				}
				_ = emu.Close()
			}
		})
	}
}

func drainEmulator(emu interface{ Read([]byte) (int, error) }) {
	buf := make([]byte, 1024)
	for {
		if _, err := emu.Read(buf); err != nil {
			return
		}
	}
}
