package cli

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/iostreams"
)

// TestExitCode: every way a run ends maps to its SPEC §1 status, also
// when wrapped, and Main's message is printed once unless already shown.
func TestExitCode(t *testing.T) {
	cases := []struct {
		err  error
		code int
	}{
		{nil, ExitOK},
		{errors.New("boom"), ExitError},
		{usagef("bad flag"), ExitUsage},
		{fmt.Errorf("policy check: %w", usagef("bad")), ExitUsage},
		{errInterrupted, ExitInterrupted},
		{shown(errInterrupted), ExitInterrupted},
		{fmt.Errorf("openai: %w", context.Canceled), ExitInterrupted},
		{errApproval, ExitApproval},
		{agent.ErrToolLimit, ExitToolLimit},
		{shown(agent.ErrToolLimit), ExitToolLimit},
	}
	for _, c := range cases {
		if got := exitCode(c.err); got != c.code {
			t.Errorf("exitCode(%v) = %d, want %d", c.err, got, c.code)
		}
	}
	io, _, _, errOut := iostreams.Test(nil)
	if code := finish(io, fmt.Errorf("config: %w", errors.New("bad key"))); code != ExitError || errOut.String() != "nb: config: bad key\n" {
		t.Errorf("finish: code %d, stderr %q", code, errOut)
	}
	errOut.Reset()
	if code := finish(io, shown(errApproval)); code != ExitApproval || errOut.Len() != 0 {
		t.Errorf("finish of a shown error: code %d, stderr %q", code, errOut)
	}
}
