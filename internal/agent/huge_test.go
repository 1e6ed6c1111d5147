package agent

import (
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// The remedy line of a 10 MB call refused for want of a terminal names
// its head and tail only, and does not repeat a 10 MB rule.
func TestHeadlessRemedyOfHugeCallIsBounded(t *testing.T) {
	huge := "mycmd HEADMARK " + strings.Repeat("x", 10<<20) + " TAILMARK"
	a := newAgent(&scripted{}, &recUI{}, false, &echoTool{})
	var remedy []string
	a.opts.Remedy = func(s string) { remedy = append(remedy, s) }
	p := &Pending{Call: &tool.Call{ID: "1", Name: "run_cmd"}, Decision: &policy.Decision{Decision: policy.Ask, Display: "run: " + huge, Subject: huge}}
	a.refuseHeadless(p)
	if len(remedy) != 1 {
		t.Fatalf("remedy = %d lines", len(remedy))
	}
	r := remedy[0]
	if len(r) > 8<<10 || !strings.Contains(r, "HEADMARK") || !strings.Contains(r, "TAILMARK") || !strings.Contains(r, "bytes more") || !strings.Contains(r, "too long to repeat") {
		t.Errorf("remedy (%d bytes): %.300s … %.200s", len(r), r, r[max(len(r)-200, 0):])
	}
}
