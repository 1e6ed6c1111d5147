package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/openai"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// logTool prints a few kilobytes of log lines, different every call.
type logTool struct{ n int }

func (l *logTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "logs", Description: "show logs", Schema: json.RawMessage(`{"type":"object"}`)}
}

func (l *logTool) Review(_ context.Context, c *tool.Call, at tool.At) (*tool.Invocation, error) {
	d := &policy.Decision{Decision: policy.Allow, Display: "logs"}
	return &tool.Invocation{Decision: d, CwdAfter: at.Cwd, Run: func(context.Context) (*tool.Result, error) {
		l.n++
		var b strings.Builder
		for i := range 120 {
			fmt.Fprintf(&b, "2026-01-%02d 10:%02d:%02d service[%d]: request %d took %dms\n", l.n%28+1, i/60, i%60, l.n, i, (i*37+l.n)%900)
		}
		return &tool.Result{Content: b.String()}, nil
	}}, nil
}

// BenchmarkLongConversation simulates 30 days of use in one directory (ten
// turns a day, each running a command with a few kilobytes of output)
// against a fake that enforces a 32 k-token window and counts prompt-cache
// prefix hits. It reports the largest request as a share of the window
// (max-%-of-window, must stay under 100) and the share of input tokens
// served from cache over the last 20 turns (%-cached-20-turns).
func BenchmarkLongConversation(b *testing.B) {
	const window, days, perDay = 32000, 30, 10
	for b.Loop() {
		var turns []llmtest.Turn
		turns = append(turns, llmtest.Turn{Standing: true, Expect: llmtest.Expect{System: "You compact the conversation"},
			Text: "Summary: the user watches a slow service day after day; request times are in the logs."})
		for range days * perDay {
			turns = append(turns,
				llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "logs", Arguments: "{}"}}},
				llmtest.Turn{Text: "The slowest requests took under a second; nothing alarming today."})
		}
		s := llmtest.NewOpenAI(b, turns...)
		s.SetWindow(window)
		p := openai.New(openai.Config{Model: "m", BaseURL: s.URL(), Compatible: true, HTTPClient: llmtest.TestClient(b)})
		saved := b.TempDir()
		day := 0
		a := New(Options{
			Provider: p, Tools: tool.NewRegistry(&logTool{}), UI: &recUI{}, Interactive: true,
			System: func(context.Context) string { return strings.Repeat("Stable instructions for the assistant. ", 60) },
			Facts:  func(context.Context) string { return fmt.Sprintf("- Working directory: /srv/day%d", day) },
			Cwd:    func() string { return "/srv" },
			Model:  Model{Window: window},
			SaveOutput: func(kind, text string) (string, error) {
				f, err := os.CreateTemp(saved, kind+"-*.txt")
				if err != nil {
					return "", err
				}
				defer f.Close()
				_, err = f.WriteString(text)
				return filepath.Join(saved, filepath.Base(f.Name())), err
			},
		}, nil)
		var before llmtest.Usage
		for day = 1; day <= days; day++ {
			for t := range perDay {
				if (day-1)*perDay+t == days*perDay-20 {
					before = s.Usage()
				}
				if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("day %d: how is the service doing now (check %d)?", day, t)}); err != nil {
					b.Fatalf("day %d turn %d: %v", day, t, err)
				}
			}
		}
		u := s.Usage()
		if u.Overflows > 0 {
			b.Fatalf("%d requests were over the window", u.Overflows)
		}
		b.ReportMetric(float64(u.Largest)*100/window, "max-%-of-window")
		b.ReportMetric(float64(u.Cached-before.Cached)*100/float64(u.Input-before.Input), "%-cached-20-turns")
	}
}
