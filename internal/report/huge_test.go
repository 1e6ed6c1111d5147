package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// The decision of a 10 MB command is reported with a bounded display
// keeping both ends.
func TestHugeDisplayBounded(t *testing.T) {
	var out bytes.Buffer
	r := New(Stream, &out, clock())
	huge := "run: mycmd HEADMARK " + strings.Repeat("x", 10<<20) + " TAILMARK"
	p := &agent.Pending{Call: &tool.Call{ID: "c1", Name: "run_cmd", Args: []byte(`{}`)}, Decision: &policy.Decision{Decision: policy.Ask, Display: huge}}
	r.Decision(p, false)
	for _, o := range lines(t, out.String()) {
		d, _ := o["display"].(string)
		if len(d) > 8<<10 || !strings.Contains(d, "HEADMARK") || !strings.Contains(d, "TAILMARK") || !strings.Contains(d, "bytes more") {
			t.Errorf("display (%d bytes): %.200s", len(d), d)
		}
	}
	if out.Len() > 16<<10 {
		t.Errorf("report wrote %d bytes", out.Len())
	}
}
