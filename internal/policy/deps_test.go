package policy

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// The analyser and the engine decide from text alone: they never run a
// program, open a connection, talk to a model or touch nb's state. Their
// dependencies (go list -deps) must stay free of what could.
func TestDependencies(t *testing.T) {
	goBin := testenv.Tool(t, "go")
	forbidden := []string{
		"os/exec", "net", "net/", "plugin",
		"github.com/nb-cli/nb/internal/llm", "github.com/nb-cli/nb/internal/store",
		"github.com/nb-cli/nb/internal/host", "github.com/nb-cli/nb/internal/audit",
		"github.com/nb-cli/nb/internal/tool", "github.com/nb-cli/nb/internal/fsfacts",
	}
	for _, pkg := range []string{"github.com/nb-cli/nb/internal/policy", "github.com/nb-cli/nb/internal/shellparse", "github.com/nb-cli/nb/internal/cmdbase"} {
		out, err := exec.Command(goBin, "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("go list -deps %s listed only %q", pkg, deps)
		}
		for _, d := range deps {
			for _, f := range forbidden {
				if d == f || (strings.HasSuffix(f, "/") && strings.HasPrefix(d, f)) || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
}
