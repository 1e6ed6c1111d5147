package agent

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/openai"
	"github.com/nb-cli/nb/internal/testenv"
	"github.com/nb-cli/nb/internal/tool"
)

// jinjaPython returns a Python interpreter that has Jinja2 (Debian's
// python3-jinja2 is installed for /usr/bin/python3).
func jinjaPython(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/python3", "python3"} {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if exec.Command(p, "-c", "import jinja2").Run() == nil {
			return p
		}
	}
	testenv.Missing(t, "python3 with jinja2 not installed (Debian: apt-get install python3-jinja2)")
	return ""
}

// TestRequestsPassStrictChatTemplates renders the requests nb really
// sends, over a session that goes through a first turn, a tool loop, a
// turn that ends without an answer, a message with an image (/insert) and
// a compaction, through chat templates that enforce what Mistral's and
// Gemma's published templates enforce (testdata/templates): every request
// must render.
func TestRequestsPassStrictChatTemplates(t *testing.T) {
	py := jinjaPython(t)
	for _, tc := range []struct{ template, model string }{
		{"mistral", "mistral-small-3.2-24b-instruct"},
		{"gemma", "google/gemma-3-27b-it"},
	} {
		t.Run(tc.template, func(t *testing.T) {
			bodies := strictSession(t, tc.model)
			if len(bodies) < 8 {
				t.Fatalf("only %d requests were made", len(bodies))
			}
			tmpl, err := filepath.Abs(filepath.Join("testdata", "templates", tc.template+".jinja"))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for i, body := range bodies {
				path := filepath.Join(dir, "body.json")
				if err := os.WriteFile(path, body, 0o600); err != nil {
					t.Fatal(err)
				}
				var stderr bytes.Buffer
				cmd := exec.Command(py, filepath.Join("testdata", "templates", "render.py"), tmpl, path)
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Errorf("request %d refused by the %s template: %v: %s\nbody: %s", i+1, tc.template, err, strings.TrimSpace(stderr.String()), body)
					continue
				}
				if bytes.Contains(body, []byte("You compact the conversation")) {
					continue // the summary request carries no facts
				}
				if !strings.Contains(string(out), "current session facts") {
					t.Errorf("request %d: the rendered prompt lacks the facts:\n%s", i+1, out)
				}
				if tc.template == "gemma" && !strings.Contains(string(out), "Stable instructions") {
					t.Errorf("request %d: the system prompt is not in the rendered prompt:\n%s", i+1, out)
				}
			}
		})
	}
}

// strictSession runs a session against the OpenAI fake and returns the
// bodies of its requests.
func strictSession(t *testing.T, model string) [][]byte {
	long := strings.Repeat("A long answer line about the files here. ", 80)
	s := llmtest.NewOpenAI(t,
		// A first turn.
		llmtest.Turn{Text: long},
		// A tool loop.
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "echo", Arguments: `{"say":"one"}`}}},
		llmtest.Turn{Text: long},
		// A turn that ends after its tool results, without an answer.
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "call_2", Name: "echo", Arguments: `{"say":"two"}`}}},
		llmtest.Turn{Status: 500, Message: "the server fell over"},
		// A message with an image.
		llmtest.Turn{Text: "A tiny picture.", Expect: llmtest.Expect{Images: 1}},
		// /compact.
		llmtest.Turn{Text: "Summary: files were listed, echo ran twice.", Expect: llmtest.Expect{LastUser: "Summarise this conversation"}},
		// A turn after the compaction.
		llmtest.Turn{Text: "Still here."},
	)
	p := openai.New(openai.Config{Model: model, BaseURL: s.URL(), Compatible: true, HTTPClient: llmtest.TestClient(t)})
	a := New(Options{
		Provider: p, Tools: tool.NewRegistry(&echoTool{}), UI: &recUI{}, Interactive: true,
		System: func(context.Context) string { return "Stable instructions for the assistant." },
		Facts:  func(context.Context) string { return "[nb: current session facts]\n- Working directory: /srv" },
		Cwd:    func() string { return "/srv" },
		Model:  Model{Window: 8000},
	}, nil)
	ctx := context.Background()
	turn := func(m llm.Message, wantErr bool) {
		t.Helper()
		if _, err := a.Turn(ctx, m); (err != nil) != wantErr {
			t.Fatalf("turn %q: error %v", m.Text, err)
		}
	}
	turn(llm.Message{Role: llm.RoleUser, Text: "what is here?"}, false)
	turn(llm.Message{Role: llm.RoleUser, Text: "echo one"}, false)
	turn(llm.Message{Role: llm.RoleUser, Text: "echo two"}, true)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde")
	turn(llm.Message{Role: llm.RoleUser, Text: "what is this picture?", Images: []llm.Image{{MediaType: "image/png", Data: png}}}, false)
	if err := a.Compact(ctx); err != nil {
		t.Fatalf("compact: %v", err)
	}
	turn(llm.Message{Role: llm.RoleUser, Text: "and now?"}, false)
	// The facts travel in the requests only, never in the conversation.
	for i, m := range a.Messages {
		if strings.Contains(m.Text, "current session facts") {
			t.Errorf("message %d of the conversation carries the facts: %q", i, m.Text)
		}
	}
	var bodies [][]byte
	for _, r := range s.Requests() {
		bodies = append(bodies, r.Raw)
	}
	return bodies
}
