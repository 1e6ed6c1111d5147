package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/report"
)

// oneReply is a model that answers every request with one tool call.
type oneReply struct{ call llm.ToolCall }

func (oneReply) Name() string  { return "fake" }
func (oneReply) Model() string { return "fake-1" }
func (o oneReply) Stream(context.Context, *llm.Request, func(llm.Event)) (*llm.Response, error) {
	return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{o.call}}, StopReason: "tool_use"}, nil
}

// A 10 MB tool argument reaches the stream-json report capped as the
// history caps it (valid JSON naming the saved full text), the history's
// cap saves the same file, and the call keeps its whole argument.
func TestReportCapsHugeArguments(t *testing.T) {
	huge := `{"command":"echo ` + strings.Repeat("z", 10<<20) + `"}`
	a := &app{state: t.TempDir(), launch: t.TempDir()}
	var out bytes.Buffer
	rec := report.New(report.Stream, &out, time.Now)
	p := &reportProvider{Provider: oneReply{llm.ToolCall{ID: "c1", Name: "run_cmd", Arguments: huge}}, rec: rec, maxArgs: 4096, save: a.saveOutput}
	resp, err := p.Stream(context.Background(), &llm.Request{}, func(llm.Event) {})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.ToolCalls[0].Arguments != huge {
		t.Fatal("the call lost its whole argument")
	}
	if out.Len() > 16<<10 {
		t.Fatalf("the report wrote %d bytes for a 10 MB argument", out.Len())
	}
	var path string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var ev struct {
			Type      string
			Arguments map[string]string
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("event %.200s: %v", sc.Text(), err)
		}
		if ev.Type != "tool_call" {
			continue
		}
		note := ev.Arguments["nb_cut"]
		i := strings.Index(note, "saved in ")
		if i < 0 || !strings.HasPrefix(ev.Arguments["head"], `{"command":"echo zzz`) {
			t.Fatalf("tool_call arguments = %v", ev.Arguments)
		}
		path = strings.TrimSuffix(note[i+len("saved in "):], "]")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != huge {
		t.Fatalf("saved file %q: %d bytes, %v", path, len(b), err)
	}
	// The history caps the same call: the same file, not a second copy.
	if again, err := a.saveOutput("capped-args-run_cmd", huge); err != nil || again != path {
		t.Errorf("history saved %q, report %q (%v)", again, path, err)
	}
}
