package compact

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
)

func conversation() []llm.Message {
	big := strings.Repeat("line of output\n", 500)
	return []llm.Message{
		{Role: llm.RoleUser, Text: "check the logs"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run_cmd", Arguments: `{"command":"journalctl"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "run_cmd", Text: big},
		{Role: llm.RoleAssistant, Text: "the logs show a crash"},
		{Role: llm.RoleUser, Text: "fix it"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c2", Name: "run_cmd", Arguments: `{"command":"systemctl restart x"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c2", ToolName: "run_cmd", Text: big},
	}
}

func TestBoundaryNeverSplitsACallFromItsResult(t *testing.T) {
	msgs := conversation()
	for budget := 0; budget < Messages(msgs)+10; budget += 50 {
		i := Boundary(msgs, budget)
		if i < len(msgs) && msgs[i].Role == llm.RoleTool {
			t.Fatalf("budget %d: boundary %d is a tool result", budget, i)
		}
		if i < len(msgs) && Messages(msgs[i:]) > budget && i > 0 && msgs[i-1].Role != llm.RoleTool {
			t.Errorf("budget %d: recent part %d tokens is over budget", budget, Messages(msgs[i:]))
		}
	}
	if Boundary(msgs, 1<<30) != 0 {
		t.Errorf("everything fits: boundary should be 0")
	}
}

func TestShrinkKeepsHeadAndSavesFullOutput(t *testing.T) {
	msgs := conversation()
	saved := map[string]string{}
	save := func(kind, text string) (string, error) {
		path := "/state/" + kind
		saved[path] = text
		return path, nil
	}
	out, n := ShrinkToolResults(msgs, 4, save)
	if n != 1 {
		t.Fatalf("shrunk %d results, want the one before the boundary", n)
	}
	if msgs[2].Text != conversation()[2].Text {
		t.Errorf("the input was modified")
	}
	got := out[2].Text
	if !strings.HasPrefix(got, "line of output\n") || !strings.Contains(got, "/state/compacted-run_cmd") || !strings.Contains(got, "500 lines") || len(got) > 2000 {
		t.Errorf("shrunk result = %q", got)
	}
	if saved["/state/compacted-run_cmd"] != msgs[2].Text {
		t.Errorf("full output not saved")
	}
	if out[6].Text != msgs[6].Text {
		t.Errorf("a recent result was shrunk")
	}
	// A one-line JSON result shrinks too.
	json := []llm.Message{{Role: llm.RoleTool, ToolName: "run_cmd", Text: `{"stdout": "` + strings.Repeat(`1\n`, 3000) + `"}`}}
	if js, n := ShrinkToolResults(json, 1, save); n != 1 || len(js[0].Text) > 2000 {
		t.Errorf("one-line result: shrunk %d, %d bytes", n, len(js[0].Text))
	}
	// Shrinking again changes nothing.
	if _, n := ShrinkToolResults(out, 4, save); n != 0 {
		t.Errorf("shrunk an already shrunk result")
	}
	// A result whose output cannot be saved stays whole.
	_, n = ShrinkToolResults(msgs, 4, func(string, string) (string, error) { return "", errors.New("disk full") })
	if n != 0 {
		t.Errorf("shrunk a result it could not save")
	}
}

func TestCap(t *testing.T) {
	m := llm.Message{Role: llm.RoleAssistant, Text: strings.Repeat("é", 100_000)}
	if !Cap(&m, 10_000, nil) {
		t.Fatal("not capped")
	}
	if len(m.Text) > 10_300 || !strings.Contains(m.Text, "bytes cut here") || !strings.HasPrefix(m.Text, "é") || !strings.HasSuffix(m.Text, "é") {
		t.Errorf("capped text: %d bytes, %q…", len(m.Text), m.Text[:40])
	}
	short := llm.Message{Text: "short"}
	if Cap(&short, 10_000, nil) || short.Text != "short" {
		t.Errorf("short text changed")
	}
}

func TestReplaceQuotesTheTurnInFlight(t *testing.T) {
	msgs := conversation()
	out := Replace(msgs, 5, "SUMMARY", 4, "")
	if !out[0].Summary || out[0].Role != llm.RoleUser || !strings.Contains(out[0].Text, "SUMMARY") {
		t.Fatalf("summary message = %+v", out[0])
	}
	if out[1].Role != llm.RoleUser || out[1].Text != "fix it" {
		t.Errorf("the in-flight request was not kept verbatim: %+v", out[1])
	}
	if len(out) != 4 || out[2].ToolCalls[0].ID != "c2" {
		t.Errorf("kept part = %+v", out[2:])
	}
	// Outside a turn nothing is added.
	if got := Replace(msgs, 5, "S", -1, ""); len(got) != 3 {
		t.Errorf("got %d messages, want summary and the two kept", len(got))
	}
}

func TestSummaryRequestFitsItsBudget(t *testing.T) {
	msgs := append(conversation(), conversation()...)
	msgs[0].Text = "OLDEST " + msgs[0].Text
	req := SummaryRequest(msgs, 1500, 500)
	if n := Request(req); n > 1500 {
		t.Errorf("summary request is %d tokens, over its budget", n)
	}
	if !strings.Contains(req.Messages[0].Text, "OLDEST") || req.System != SummarySystem || len(req.Tools) != 0 {
		t.Errorf("summary request lost the oldest turn or has tools")
	}
}

// A JSON tool result (run_cmd's) is saved decoded: its output's lines are
// lines in the file, so grep and tail work and the note counts them right.
func TestShrinkSavesDecodedOutput(t *testing.T) {
	var out strings.Builder
	for i := range 100 {
		fmt.Fprintf(&out, "line %d of the build \"log\"\t\n", i)
	}
	result, err := json.Marshal(map[string]any{"stdout": out.String(), "stderr": "", "exitCode": 2, "cwd": "/src", "durationMs": 12, "outputFile": "/state/outputs/run-1.txt"})
	if err != nil {
		t.Fatal(err)
	}
	msgs := []llm.Message{
		{Role: llm.RoleUser, Text: "build"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run_cmd", Arguments: `{"command":"make"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "run_cmd", Text: string(result)},
		{Role: llm.RoleAssistant, Text: "it failed"},
	}
	var saved string
	shrunk, n := ShrinkToolResults(msgs, 3, func(kind, text string) (string, error) { saved = text; return "/state/x", nil })
	if n != 1 {
		t.Fatalf("shrunk %d", n)
	}
	if strings.Count(saved, "\n") < 100 || !strings.Contains(saved, "line 57 of the build \"log\"\t\n") || !strings.Contains(saved, "exitCode: 2\n") || !strings.Contains(saved, "outputFile: /state/outputs/run-1.txt\n") {
		t.Errorf("saved result is not the decoded output:\n%s", saved)
	}
	note := shrunk[2].Text
	if !strings.Contains(note, "(105 lines,") || !strings.Contains(note, "line 3 of the build") {
		t.Errorf("note = %q", note)
	}
}
