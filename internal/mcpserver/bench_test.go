package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectBinary starts `nb mcp serve` (with extra arguments) and
// connects a Go SDK client over stdio with the given protocol version
// ("" for the newest).
func connectBinary(b *testing.B, version string, extra ...string) (*mcp.ClientSession, *exec.Cmd) {
	b.Helper()
	dir := b.TempDir()
	cmd := exec.Command(nbBinary(b), append([]string{"mcp", "serve"}, extra...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var so *mcp.ClientSessionOptions
	if version != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, so)
	if err != nil {
		b.Fatal(err)
	}
	return cs, cmd
}

func reportPercentiles(b *testing.B, d []time.Duration, prefix string) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	ms := func(x time.Duration) float64 { return float64(x) / float64(time.Millisecond) }
	b.ReportMetric(ms(d[len(d)/2]), prefix+"p50-ms")
	b.ReportMetric(ms(d[len(d)*99/100]), prefix+"p99-ms")
}

// BenchmarkStdioToolCall measures a tools/call round trip to the real
// binary over stdio: run_cmd {"command":"true"} when nb serves run_cmd,
// otherwise path_info. Two servers are called in turn: one with what nb
// allows by itself unsandboxed (terminal.readOnlySandbox.enabled false;
// target: p50 under 5 ms) and one as configured by default, where
// run_cmd true runs in the read-only sandbox (sandboxed-p50-ms).
func BenchmarkStdioToolCall(b *testing.B) {
	off := filepath.Join(b.TempDir(), "off.json")
	if err := os.WriteFile(off, []byte(`{"terminal": {"readOnlySandbox": {"enabled": false}}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	plain, _ := connectBinary(b, "2025-06-18", "--config", off)
	defer plain.Close()
	sandboxed, _ := connectBinary(b, "2025-06-18")
	defer sandboxed.Close()
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "path_info", Arguments: map[string]any{"path": "."}}
	lt, err := plain.ListTools(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, tl := range lt.Tools {
		if tl.Name == "run_cmd" {
			params = &mcp.CallToolParams{Name: "run_cmd", Arguments: map[string]any{"command": "true"}}
		}
	}
	b.Logf("calling %s", params.Name)
	call := func(cs *mcp.ClientSession) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, params)
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %+v", err, res)
		}
		return d
	}
	// the first calls start what later ones reuse (the detector, the
	// sandbox's records)
	call(plain)
	call(sandboxed)
	var p, s []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p = append(p, call(plain))
		s = append(s, call(sandboxed))
	}
	b.StopTimer()
	reportPercentiles(b, p, "")
	reportPercentiles(b, s, "sandboxed-")
}

// BenchmarkStartToInitialize measures from starting `nb mcp serve` to its
// answer to initialize (target: under 20 ms).
func BenchmarkStartToInitialize(b *testing.B) {
	nbBinary(b)
	durations := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		start := time.Now()
		cs, _ := connectBinary(b, "2025-06-18")
		durations = append(durations, time.Since(start))
		b.StopTimer()
		cs.Close()
		b.StartTimer()
	}
	reportPercentiles(b, durations, "")
}
