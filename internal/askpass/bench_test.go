package askpass

import (
	"context"
	"os"
	"testing"
)

// BenchmarkPrepareEnd is what the bridge adds to every run_cmd on this
// machine (the private directory and socket exist after the first).
func BenchmarkPrepareEnd(b *testing.B) {
	s := New(Options{Environ: os.Environ()})
	defer s.Close()
	ctx := context.Background()
	if r, err := s.Prepare(ctx, "sudo true"); r == nil || err != nil {
		b.Skipf("no bridge here: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, _ := s.Prepare(ctx, "sudo systemctl restart nginx")
		_ = r.Env()
		r.End()
	}
}

// BenchmarkRunsSudo is what a fleet command pays to know whether to ask
// its hosts about sudo.
func BenchmarkRunsSudo(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		RunsSudo("cd /var/log && grep -c error syslog | sort -n | head -5")
	}
}
