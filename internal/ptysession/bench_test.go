package ptysession

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"
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
