package fleet

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/fleet/fleettest"
)

// BenchmarkUptime50 runs uptime on 50 loopback hosts (one sshd on 50
// ports) with the default concurrency: "first" connects to every host
// each time (a new session), "reused" is a later fan-out of the same
// session over its open connections. peak-RSS-MiB is the process's high
// water mark (the benchmark's own sshd is another process).
func BenchmarkUptime50(b *testing.B) {
	ft := fleettest.Start(b, 50)
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: ft.Config, Home: ft.Home, LocalUser: ft.Server.User}})
	if err != nil {
		b.Fatal(err)
	}
	hosts := inv.Hosts()
	run := func(b *testing.B, f *Fleet) {
		res := f.Run(context.Background(), hosts, Request{Command: "uptime", Timeout: 30 * time.Second})
		if res.Summary.OK != 50 {
			b.Fatalf("%s", res.JSON())
		}
	}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			f := New(inv, Options{Home: ft.Home})
			run(b, f)
			b.StopTimer()
			f.Close()
			b.StartTimer()
		}
		b.ReportMetric(peakRSS(), "peak-RSS-MiB")
	})
	b.Run("reused", func(b *testing.B) {
		f := New(inv, Options{Home: ft.Home})
		defer f.Close()
		run(b, f)
		for b.Loop() {
			run(b, f)
		}
		b.ReportMetric(peakRSS(), "peak-RSS-MiB")
	})
}

// peakRSS is VmHWM of this process in MiB (0 where /proc is missing).
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
