package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/tool"
)

func clock() func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(250 * time.Millisecond); return t }
}

func lines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		objs = append(objs, m)
	}
	return objs
}

// run plays a small run: a call refused for want of a terminal, a call
// over the limit that never reached the policy, and a final answer.
func run(r *Recorder) {
	r.Start(Start{Provider: "openai", Model: "m", Cwd: "/w"})
	r.Request()
	r.Text("Let me")
	r.Response(&llm.Response{Message: llm.Message{Text: "Let me", ToolCalls: []llm.ToolCall{
		{ID: "a", Name: "run_cmd", Arguments: `{"command":"rm x"}`},
		{ID: "b", Name: "run_cmd", Arguments: `not json`},
	}}, StopReason: llm.StopToolUse}, Usage{InputTokens: 10, OutputTokens: 2})
	d := &policy.Decision{Decision: policy.Deny, DecidedBy: policy.ByHeadless, Reasons: []string{"dangerous"}, Remedy: "re-run with --approve 'rm x'"}
	p := &agent.Pending{Call: &tool.Call{ID: "a", Name: "run_cmd"}, Decision: d}
	r.Decision(p, false)
	r.Call(agent.Record{Call: p.Call, Decision: d, Outcome: "denied", DecidedBy: "headless", Result: &tool.Result{Content: strings.Repeat("é", 400), IsError: true}})
	r.Settle([]llm.Message{{Role: llm.RoleTool, ToolCallID: "a", Text: "x"}, {Role: llm.RoleTool, ToolCallID: "b", Text: "not run: limit", IsError: true}})
	r.Request()
	r.Response(&llm.Response{Message: llm.Message{Text: "Done."}, StopReason: llm.StopEnd}, Usage{InputTokens: 5, OutputTokens: 1, CachedInputTokens: 3})
}

func TestFinalWritesOneResult(t *testing.T) {
	var out bytes.Buffer
	r := New(Final, &out, clock())
	run(r)
	needed, remedies := r.NeedsApproval()
	if !needed || len(remedies) != 1 || remedies[0] != "re-run with --approve 'rm x'" {
		t.Errorf("NeedsApproval = %v, %q", needed, remedies)
	}
	if out.Len() != 0 {
		t.Fatalf("json mode wrote before the end: %s", out.String())
	}
	r.SetCost(0.25)
	if _, err := r.Finish(StatusApproval, 3, &Error{Kind: "approval_required", Message: "m"}); err != nil {
		t.Fatal(err)
	}
	r.Finish(StatusAnswered, 0, nil) // a second Finish writes nothing
	objs := lines(t, out.String())
	if len(objs) != 1 {
		t.Fatalf("%d objects, want 1:\n%s", len(objs), out.String())
	}
	res := objs[0]
	if res["type"] != "result" || res["version"] != float64(Version) || res["exitCode"] != float64(3) || res["answer"] != "Done." || res["turns"] != float64(2) {
		t.Errorf("result %v", res)
	}
	if res["durationMs"].(float64) <= 0 {
		t.Errorf("duration %v", res["durationMs"])
	}
	usage := res["usage"].(map[string]any)
	if usage["inputTokens"] != float64(15) || usage["outputTokens"] != float64(3) || usage["cachedInputTokens"] != float64(3) || usage["costUSD"] != 0.25 {
		t.Errorf("usage %v", usage)
	}
	calls := res["toolCalls"].([]any)
	a, b := calls[0].(map[string]any), calls[1].(map[string]any)
	if a["outcome"] != "denied" || a["needsApproval"] != true || a["decidedBy"] != "headless" || a["decision"] != "deny" {
		t.Errorf("call a %v", a)
	}
	if s := a["summary"].(string); len(s) > summaryMax+len("…") || !strings.HasSuffix(s, "…") || !strings.HasPrefix(s, "é") || a["bytes"] != float64(800) {
		t.Errorf("summary of a long result: %d bytes %q", len(s), s)
	}
	// b never reached the policy: its result comes from the conversation,
	// and its arguments, not JSON, are kept as a string
	if b["outcome"] != OutcomeNotRun || b["summary"] != "not run: limit" || b["arguments"] != "not json" || b["decision"] != nil {
		t.Errorf("call b %v", b)
	}
}

func TestStreamWritesEventsInOrder(t *testing.T) {
	var out bytes.Buffer
	r := New(Stream, &out, clock())
	run(r)
	r.Finish(StatusAnswered, 0, nil)
	var types []string
	for _, o := range lines(t, out.String()) {
		types = append(types, o["type"].(string))
	}
	want := "start text message usage tool_call tool_call decision tool_result tool_result message usage result"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
}

func TestQuietWritesNothing(t *testing.T) {
	var out bytes.Buffer
	r := New(Quiet, &out, clock())
	run(r)
	if res, _ := r.Finish(StatusAnswered, 0, nil); res.Answer != "Done." || len(res.ToolCalls) != 2 {
		t.Errorf("result %+v", res)
	}
	if out.Len() != 0 {
		t.Errorf("text mode wrote %q", out.String())
	}
}

func TestHeadlessRefusal(t *testing.T) {
	for _, c := range []struct {
		rec  agent.Record
		want bool
	}{
		{agent.Record{Outcome: "denied", DecidedBy: "no-terminal"}, true},
		{agent.Record{Outcome: "denied", DecidedBy: "headless"}, true},
		// the audit's decider may differ; the decision itself says so
		{agent.Record{Outcome: "denied", DecidedBy: "user", Decision: &policy.Decision{Decision: policy.Deny, DecidedBy: policy.ByHeadless}}, true},
		{agent.Record{Outcome: "denied", DecidedBy: "deny-rule", Decision: &policy.Decision{Decision: policy.Deny, DecidedBy: policy.ByDenyRule, Reasons: []string{policy.Refusal}}}, false},
		{agent.Record{Outcome: "denied", DecidedBy: "deny-rule", Decision: &policy.Decision{Reasons: []string{"denied by rule"}}}, false},
		{agent.Record{Outcome: "declined", DecidedBy: "user"}, false},
		{agent.Record{Outcome: "ran", DecidedBy: "flag"}, false},
	} {
		if got := headlessRefusal(c.rec); got != c.want {
			t.Errorf("%+v: %v, want %v", c.rec, got, c.want)
		}
	}
}

// TestStreamSessionAndTimestamps: start and result carry the run's session
// id (a UUID, different for every run); every event carries the clock's
// time, right after its type.
func TestStreamSessionAndTimestamps(t *testing.T) {
	var out bytes.Buffer
	r := New(Stream, &out, clock())
	run(r)
	if _, err := r.Finish(StatusAnswered, 0, nil); err != nil {
		t.Fatal(err)
	}
	objs := lines(t, out.String())
	start, result := objs[0], objs[len(objs)-1]
	id, _ := start["sessionId"].(string)
	if !uuidRE.MatchString(id) || result["sessionId"] != id || id != r.SessionID() {
		t.Errorf("session ids: start %v, result %v, recorder %q", start["sessionId"], result["sessionId"], r.SessionID())
	}
	if other := New(Stream, &bytes.Buffer{}, clock()).SessionID(); other == id {
		t.Errorf("two runs share the session id %s", id)
	}
	prev := ""
	for i, o := range objs {
		ts, _ := o["timestamp"].(string)
		at, err := time.Parse(TimeFormat, ts)
		if err != nil || at.Year() != 2026 || !strings.HasSuffix(ts, "Z") || ts < prev {
			t.Errorf("event %d (%v): timestamp %q (%v) after %q", i, o["type"], ts, err, prev)
		}
		prev = ts
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.HasPrefix(l, `{"type":"`) || !strings.Contains(l[:40], `","timestamp":"2026-`) {
			t.Errorf("event does not start with type then timestamp: %.80s", l)
		}
	}
}

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// A secret typed into a session is not in the final report: the call's
// arguments are the ones its review kept.
func TestFinalKeepsNoSecret(t *testing.T) {
	var out bytes.Buffer
	r := New(Final, &out, clock())
	r.Start(Start{Provider: "openai", Model: "m", Cwd: "/w"})
	r.Request()
	r.Response(&llm.Response{Message: llm.Message{ToolCalls: []llm.ToolCall{
		{ID: "s", Name: "terminal_continue", Arguments: `{"sessionId":"term-1","stdin":"hunter2\n"}`},
	}}, StopReason: llm.StopToolUse}, Usage{})
	d := &policy.Decision{Decision: policy.Deny, DecidedBy: "headless", Secret: true}
	p := &agent.Pending{Call: &tool.Call{ID: "s", Name: "terminal_continue", Args: []byte(`{"sessionId":"term-1","stdin":"[hidden]"}`)}, Decision: d}
	r.Decision(p, false)
	if _, err := r.Finish(StatusApproval, 3, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "hunter2") || !strings.Contains(out.String(), "[hidden]") {
		t.Fatalf("report:\n%s", out.String())
	}
}

// Each call lists the files it changed (path, kind, bytes), in its
// tool_result event and in the result, which also lists every change of
// the run together.
func TestChangesListed(t *testing.T) {
	var out bytes.Buffer
	r := New(Stream, &out, clock())
	r.Start(Start{Provider: "openai", Model: "m", Cwd: "/w"})
	set := &changes.Set{Files: []changes.File{
		{Path: "/w/a.go", Before: changes.State{Type: changes.Regular, Data: []byte("x")}, After: changes.State{Type: changes.Regular, Data: []byte("xyz")}},
		{Path: "/w/old", Before: changes.State{Type: changes.Regular, Data: []byte("12")}, RenamedTo: "/w/new"},
		{Path: "/w/new", After: changes.State{Type: changes.Regular, Data: []byte("12")}, RenamedFrom: "/w/old"},
		{Path: "/w/gone", Before: changes.State{Type: changes.Regular, Data: []byte("1234")}},
	}}
	d := &policy.Decision{Decision: policy.Allow, DecidedBy: policy.ByFlag}
	r.Call(agent.Record{Call: &tool.Call{ID: "a", Name: "run_cmd"}, Decision: d, Outcome: agent.Ran, Result: &tool.Result{Content: "ok", Changes: set}})
	res, err := r.Finish(StatusAnswered, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{Path: "/w/a.go", Kind: "modified", Bytes: 3}, {Path: "/w/new", Kind: "renamed", Bytes: 2, From: "/w/old"}, {Path: "/w/gone", Kind: "deleted", Bytes: 4}}
	got, _ := json.Marshal(res.Changes)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("result changes %s, want %s", got, exp)
	}
	objs := lines(t, out.String())
	ev := objs[1]
	if ev["type"] != "tool_result" || len(ev["changes"].([]any)) != 3 {
		t.Errorf("tool_result event %v", ev)
	}
}

// TestWithheld: a call's result says what was withheld from it; the
// stream has a withheld event for every text; the result counts them all.
func TestWithheld(t *testing.T) {
	var out bytes.Buffer
	r := New(Stream, &out, clock())
	r.Start(Start{Provider: "openai", Model: "m", Cwd: "/w"})
	r.Withheld("your message", []redact.Count{{Kind: "$GITHUB_TOKEN", Count: 1}})
	d := &policy.Decision{Decision: policy.Allow, DecidedBy: policy.BySafeList, Display: "read: .env"}
	p := &agent.Pending{Call: &tool.Call{ID: "a", Name: "run_cmd"}, Decision: d}
	r.Decision(p, true)
	counts := []redact.Count{{Kind: "github-pat", Count: 2}, {Kind: "$GITHUB_TOKEN", Count: 1}}
	r.Withheld("the result of read: .env", counts)
	r.Call(agent.Record{Call: p.Call, Decision: d, Outcome: agent.Ran, DecidedBy: policy.BySafeList, Result: &tool.Result{Content: "[withheld: github-pat]", Withheld: counts}})
	res, err := r.Finish(StatusAnswered, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []redact.Count{{Kind: "$GITHUB_TOKEN", Count: 2}, {Kind: "github-pat", Count: 2}}
	if fmt.Sprint(res.Withheld) != fmt.Sprint(want) || fmt.Sprint(res.ToolCalls[0].Withheld) != fmt.Sprint(counts) {
		t.Errorf("result withheld %v, call %v", res.Withheld, res.ToolCalls[0].Withheld)
	}
	var events, results int
	for _, o := range lines(t, out.String()) {
		switch o["type"] {
		case "withheld":
			events++
			if o["from"] == "" || o["counts"] == nil {
				t.Errorf("event %v", o)
			}
		case "tool_result":
			results++
			if w, _ := o["withheld"].([]any); len(w) != 2 {
				t.Errorf("tool_result %v", o)
			}
		}
	}
	if events != 2 || results != 1 {
		t.Errorf("%d withheld events, %d tool results:\n%s", events, results, out.String())
	}
}
