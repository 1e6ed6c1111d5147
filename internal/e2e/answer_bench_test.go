//go:build unix

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkHugeAnswer measures nb's peak resident memory (peak-rss-MiB)
// while a single-shot run streams a 100 MB answer to a pipe: the answer is
// passed on as it arrives and only its head and tail are kept.
func BenchmarkHugeAnswer(b *testing.B) {
	exe, err := exec.LookPath("nb")
	if err != nil {
		b.Fatal(err)
	}
	const total, piece = 100 << 20, 16 << 10
	content, _ := json.Marshal(strings.Repeat("all work and no play. ", piece/22))
	event := fmt.Sprintf(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":%s},"finish_reason":null}]}`+"\n\n", content)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for sent := 0; sent < total; sent += piece {
			if _, err := io.WriteString(w, event); err != nil {
				return
			}
		}
		io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	var peak float64
	for b.Loop() {
		dir := b.TempDir()
		home := filepath.Join(dir, "home")
		os.MkdirAll(filepath.Join(home, ".config", "nb"), 0o700)
		cfg := fmt.Sprintf(`{"activeProvider": "big", "providers": {"big": {"type": "openai-compatible", "baseUrl": %q, "model": "m", "contextWindow": 100000}}}`, srv.URL+"/v1")
		os.WriteFile(filepath.Join(home, ".config", "nb", "config.json"), []byte(cfg), 0o600)
		cmd := exec.Command(exe, "--no-tools", "write a lot")
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/.config", "XDG_STATE_HOME=" + home + "/.local/state"}
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, out)
		if err := cmd.Wait(); err != nil {
			b.Fatalf("nb: %v", err)
		}
		if n < total*9/10 {
			b.Fatalf("only %d bytes of the answer reached stdout", n)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, float64(ru.Maxrss)/1024)
		}
	}
	b.ReportMetric(peak, "peak-rss-MiB")
}
