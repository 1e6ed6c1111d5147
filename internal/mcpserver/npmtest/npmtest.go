// Package npmtest provides the node packages the MCP interop tests talk to
// (the Inspector, the TypeScript SDK and the reference servers), installed
// by ../testdata/setup.sh into a cache outside the repository.
package npmtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/testenv"
)

var (
	once sync.Once
	dir  string
	err  error
)

// Dir returns the directory holding node_modules, installing the packages
// the first time. Without node or npm the test is skipped, or fails when
// NB_REQUIRE_INTEROP is set (as scripts/test.sh does).
func Dir(t testing.TB) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil && os.Getenv("NB_REQUIRE_INTEROP") != "" {
			t.Fatalf("%s is required for the MCP interop tests", tool)
		}
		testenv.Tool(t, tool)
	}
	once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		_, self, _, _ := runtime.Caller(0)
		script := filepath.Join(filepath.Dir(self), "..", "testdata", "setup.sh")
		cmd := exec.CommandContext(ctx, "sh", script)
		cmd.Stderr = os.Stderr
		out, e := cmd.Output()
		if e != nil {
			err = fmt.Errorf("mcpserver/testdata/setup.sh: %v", e)
			return
		}
		dir = strings.TrimSpace(string(out))
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
