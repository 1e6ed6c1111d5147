//go:build unix

package ptysession

import (
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
)

// BenchmarkContinueEchoHi measures a terminal_continue that types `echo hi`
// into a bash session, from sending to returning. With the seed's intervals
// alone it would take the settle interval (here 2 s); prompt detection ends
// it when the prompt comes back.
func BenchmarkContinueEchoHi(b *testing.B) {
	p := fast
	p.MinInterval = 1
	p.SettleInterval = 2
	p.MaxInterval = 30
	m := New(Options{Host: localHost, Dir: b.TempDir, Persistent: p})
	defer m.CloseAll()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out, err := m.Start(ctx, "bash --norc --noprofile", "")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		o, err := m.Continue(ctx, out.ID, "echo hi\n")
		if err != nil {
			b.Fatal(err)
		}
		if !o.Prompt || !strings.Contains(o.Text, "\nhi\n") {
			b.Fatalf("no prompt after echo hi: %+v", o)
		}
	}
}

// BenchmarkIdleCPU reports the CPU time nb spends while 8 sessions sit idle
// for a second (cpu-ms/idle-s); it should be close to zero.
func BenchmarkIdleCPU(b *testing.B) {
	m := New(Options{Host: localHost, Dir: b.TempDir, Persistent: fast})
	defer m.CloseAll()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for range 8 {
		if _, err := m.Start(ctx, "bash --norc --noprofile", ""); err != nil {
			b.Fatal(err)
		}
	}
	var total time.Duration
	b.ResetTimer()
	for b.Loop() {
		before := cpuTime()
		time.Sleep(time.Second)
		total += cpuTime() - before
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "cpu-ms/idle-s")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSessionThroughput measures how fast a session moves a program's
// output: 64 MiB of short lines written by the program, from start to the
// read that sees it exit.
func BenchmarkSessionThroughput(b *testing.B) {
	const size = 64 << 20
	p := fast
	p.MaxInterval = 600
	p.BufferBytes = 1 << 20
	m := New(Options{Host: localHost, Dir: b.TempDir, Persistent: p})
	defer m.CloseAll()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		out, err := m.Start(ctx, "yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c "+strconv.Itoa(size), "")
		if err != nil {
			b.Fatal(err)
		}
		for !out.Complete {
			if out, err = m.Continue(ctx, out.ID, ""); err != nil {
				b.Fatal(err)
			}
		}
		// LF becomes CRLF on the terminal.
		if out.Position < size {
			b.Fatalf("position %d after exit, want >= %d", out.Position, size)
		}
	}
}

// BenchmarkSessionThroughputCeiling moves the same output through a bare
// local PTY read into a buffer: the ceiling for BenchmarkSessionThroughput.
func BenchmarkSessionThroughputCeiling(b *testing.B) {
	const size = 64 << 20
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	buf := make([]byte, 64<<10)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		t, err := localHost().StartPTY(ctx, &host.PTYCommand{Script: "yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c " + strconv.Itoa(size), Dir: b.TempDir(), Rows: 24, Cols: 80})
		if err != nil {
			b.Fatal(err)
		}
		var n int64
		for {
			k, err := t.Read(buf)
			n += int64(k)
			if err != nil {
				break
			}
		}
		_ = t.Close()
		if n < size {
			b.Fatalf("read %d bytes, want >= %d", n, size)
		}
	}
}

func localHost() host.Host { return &host.Local{} }
