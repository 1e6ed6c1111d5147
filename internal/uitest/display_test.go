//go:build unix

package uitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm/llmtest"
)

func TestExitOneOfGrepIsNoMatch(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	if err := os.WriteFile(filepath.Join(work, "notes.txt"), []byte("nothing to do\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("grep -c TODO notes.txt", "")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: `"exitCode":1`}, Text: "No TODOs."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"count todos"}})
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
	l := lineWith(n.scr.String(), "grep -c TODO")
	if !strings.HasPrefix(l, "✓") || !strings.Contains(l, "exit 1") || !strings.HasSuffix(strings.TrimSpace(l), "no match") {
		t.Errorf("line %q, want a ✓ with exit 1 and no match", l)
	}
}

func TestWarnedWriteHasNoRedundantLine(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("echo hi > notes.txt", "")}},
		llmtest.Turn{Text: "Wrote it."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"write"}})
	n.waitText(ctx, "[N]o")
	screen := n.scr.String()
	if !strings.Contains(screen, "write ⚠️: notes.txt") || strings.Contains(screen, "writes notes.txt") {
		t.Errorf("prompt:\n%s", screen)
	}
	n.send("y")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestWideTableReflowsInANarrowTerminal(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	table := "| option | what it does | default |\n|---|---|---|\n" +
		"| maxInterval | the longest a terminal read waits for output that matters before it returns | 30 |\n"
	srv := server(t, llmtest.Turn{Text: table})
	n := start(t, srv, work, env, runOpts{cols: 50, rows: 24, args: []string{"options?"}})
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
	screen := n.scr.String()
	if strings.Contains(screen, "|") || !strings.Contains(screen, "maxInterval") || !strings.Contains(screen, "matters before it returns") {
		t.Errorf("table at 50 columns:\n%s", screen)
	}
}
