package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMCPToken(t *testing.T) {
	none := func(string) string { return "" }
	a, fresh, err := mcpToken("", none)
	b, _, _ := mcpToken("", none)
	if err != nil || !fresh || len(a) != 64 || a == b {
		t.Fatalf("fresh tokens %q %q (%v, fresh %v)", a, b, err, fresh)
	}
	f := filepath.Join(t.TempDir(), "tok")
	os.WriteFile(f, []byte("  from-the-file-0123456789\n"), 0o600)
	env := func(k string) string { return map[string]string{"NB_MCP_TOKEN": "from-the-environment-0123"}[k] }
	if tok, fresh, err := mcpToken(f, env); err != nil || fresh || tok != "from-the-file-0123456789" {
		t.Fatalf("file: %q %v %v", tok, fresh, err)
	}
	if tok, fresh, err := mcpToken("", env); err != nil || fresh || tok != "from-the-environment-0123" {
		t.Fatalf("env: %q %v %v", tok, fresh, err)
	}
	os.WriteFile(f, []byte("short"), 0o600)
	if _, _, err := mcpToken(f, none); err == nil || !strings.Contains(err.Error(), "at least") {
		t.Fatalf("short token: %v", err)
	}
	if _, _, err := mcpToken(filepath.Join(t.TempDir(), "missing"), none); err == nil {
		t.Fatal("missing token file accepted")
	}
}
