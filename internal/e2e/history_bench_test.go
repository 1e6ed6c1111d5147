package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/store"
)

// BenchmarkLargeHistoryTurn measures a single-shot run in a directory whose
// history holds 10,000 messages: from the start of the process until the
// model request has arrived whole at the fake server, its body read
// (ms-to-request), nb's peak resident memory at that moment
// (peak-rss-MiB), and the CPU time its threads used by then
// (cpu-ms-to-request). "chat" is questions and answers; "tools" is
// tool-heavy (a call and a result of a few hundred bytes of JSON for every
// question and answer: 7.6 MB). NB_BENCH_EXE names another nb binary to
// measure (an earlier version, for comparison).
func BenchmarkLargeHistoryTurn(b *testing.B) {
	for _, kind := range []string{"chat", "tools"} {
		b.Run(kind, func(b *testing.B) { largeHistoryTurn(b, kind) })
	}
}

func largeHistoryTurn(b *testing.B, kind string) {
	exe, err := exec.LookPath("nb")
	if e := os.Getenv("NB_BENCH_EXE"); e != "" {
		exe, err = e, nil
	}
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	h, err := store.OpenHistory(dir, b.TempDir(), time.Now)
	if err != nil {
		b.Fatal(err)
	}
	var msgs []llm.Message
	if kind == "chat" {
		for i := range 5000 {
			msgs = append(msgs,
				llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d: %s", i, strings.Repeat("why is the build slow? ", 8))},
				llm.Message{Role: llm.RoleAssistant, Text: fmt.Sprintf("answer %d: %s", i, strings.Repeat("the cache is cold. ", 12))})
		}
	} else {
		for i := range 2500 {
			id := fmt.Sprintf("call_%d", i)
			out := fmt.Sprintf(`{"stdout":%q,"stderr":"","exitCode":0,"cwd":"/src","durationMs":12,"timedOut":false}`, strings.Repeat(fmt.Sprintf("src/pkg%d/file.go:12: TODO tidy this\n", i), 60))
			msgs = append(msgs,
				llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d: %s", i, strings.Repeat("why is the build slow? ", 8))},
				llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "run_cmd", Arguments: fmt.Sprintf(`{"command":"grep -rn TODO src/pkg%d","description":"find the TODOs"}`, i)}},
					Usage: &llm.Usage{InputTokens: 1000 + i, OutputTokens: 20}, Model: "m"},
				llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "run_cmd", Text: out},
				llm.Message{Role: llm.RoleAssistant, Text: fmt.Sprintf("answer %d: %s", i, strings.Repeat("the cache is cold. ", 12)), Usage: &llm.Usage{InputTokens: 1100 + i, OutputTokens: 60}, Model: "m"})
		}
	}
	if err := h.Save(msgs); err != nil {
		b.Fatal(err)
	}
	h.Close()
	if fi, err := os.Stat(filepath.Join(dir, store.HistoryFile)); err == nil {
		b.ReportMetric(float64(fi.Size())/1e6, "history-MB")
	}
	var total, cpu, peak float64
	for b.Loop() {
		b.StopTimer()
		s := newArrivalServer()
		home := filepath.Join(b.TempDir(), "home")
		os.MkdirAll(filepath.Join(home, ".config", "nb"), 0o700)
		// A window that holds the whole history: the run sends it as is.
		cfg := fmt.Sprintf(`{"activeProvider": "big", "providers": {"big": {"type": "openai-compatible", "baseUrl": %q, "model": "m", "contextWindow": 10000000}}}`, s.URL())
		os.WriteFile(filepath.Join(home, ".config", "nb", "config.json"), []byte(cfg), 0o600)
		cmd := exec.Command(exe, "--no-tools", "one more question")
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/.config", "XDG_STATE_HOME=" + home + "/.local/state"}
		b.StartTimer()
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		var arrived time.Time
		select {
		case arrived = <-s.arrived:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			b.Fatal("no request after 30s")
		}
		b.StopTimer()
		total += float64(arrived.Sub(start)) / float64(time.Millisecond)
		cpu += cpuMS(cmd.Process.Pid)
		peak = max(peak, peakRSS(cmd.Process.Pid))
		close(s.release)
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		if n := strings.Count(<-s.body, `"role":`); n < 10002 {
			b.Fatalf("the request carried %d messages, want at least 10002 (the history, the question, the facts)", n)
		}
		s.srv.Close()
		b.StartTimer()
	}
	b.ReportMetric(total/float64(b.N), "ms-to-request")
	b.ReportMetric(cpu/float64(b.N), "cpu-ms-to-request")
	b.ReportMetric(peak, "peak-rss-MiB")
}

// arrivalServer notes when a chat completion request has arrived whole
// (its body read: nb writes a long body as it sends it), and answers once
// released, so that the answer is not measured.
type arrivalServer struct {
	srv     *httptest.Server
	arrived chan time.Time
	release chan struct{}
	body    chan string
}

func newArrivalServer() *arrivalServer {
	a := &arrivalServer{arrived: make(chan time.Time, 1), release: make(chan struct{}), body: make(chan string, 1)}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		a.arrived <- time.Now()
		a.body <- string(data)
		<-a.release
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"done"},"finish_reason":"stop"}]}`+"\n\n")
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	return a
}

// URL is the base URL for an OpenAI-compatible provider.
func (a *arrivalServer) URL() string { return a.srv.URL + "/v1" }

// cpuMS is the CPU time the process's threads have run so far, in ms.
func cpuMS(pid int) float64 {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	var ns float64
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(data)); len(f) > 0 {
			v, _ := strconv.ParseFloat(f[0], 64)
			ns += v
		}
	}
	return ns / 1e6
}

// peakRSS is the process's peak resident set (VmHWM) in MiB.
func peakRSS(pid int) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
