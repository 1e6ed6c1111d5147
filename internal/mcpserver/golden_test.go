package mcpserver

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestContextSpecGolden(t *testing.T) {
	s := (&ContextTool{}).Spec()
	var schema any
	if err := json.Unmarshal(s.Schema, &schema); err != nil {
		t.Fatal(err)
	}
	got, _ := json.MarshalIndent(map[string]any{"name": s.Name, "description": s.Description, "schema": schema}, "", "  ")
	golden := filepath.Join("testdata", "get_context.golden.json")
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(want)) != string(got) {
		t.Fatalf("get_context spec changed; run go test -update if intended\n%s", got)
	}
}
