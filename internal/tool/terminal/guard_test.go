package terminal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/sandbox"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/ptysession"
	"github.com/nb-cli/nb/internal/testenv"
	"github.com/nb-cli/nb/internal/tool"
)

// A session the safe list allowed starts in the read-only sandbox; input
// typed into it later is judged as on the host it was decided for (not
// as in a sandbox the user chose), and runs in the session's sandbox.
func TestSafeListSessionRunsSandboxed(t *testing.T) {
	testenv.Tool(t, "bwrap")
	root, err := os.MkdirTemp("/var/tmp", "nb-terminal-guard-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	dir, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{dir, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	local := &host.Local{}
	t.Cleanup(func() { local.Close() })
	guard := sandbox.NewGuard(sandbox.GuardOptions{Mechanism: sandbox.MechanismBwrap, LaunchDir: dir, Home: home})
	t.Cleanup(func() { guard.Close() })
	wd := tool.NewWorkdir(dir)
	m := ptysession.New(ptysession.Options{
		Host:       func() host.Host { return local },
		Dir:        wd.Cwd,
		Persistent: config.Persistent{MinInterval: 0.05, SettleInterval: 0.3, MaxInterval: 5, BufferBytes: 1 << 16, Rows: 24, Cols: 80},
	})
	t.Cleanup(func() { _ = m.CloseAll() })
	rec := &recorder{verdict: policy.Allow, by: policy.BySafeList}
	tools := map[string]tool.Tool{}
	for _, tl := range New(Options{Manager: m, Policy: rec, Host: func() host.Host { return local }, Confine: guard, Home: home}) {
		tools[tl.Spec().Name] = tl
		workdirs[tl] = wd
	}
	_, res := call(t, tools["terminal_start"], `{"command":"bash --norc --noprofile"}`)
	if !strings.Contains(res.Content, "Sandbox: read-only") {
		t.Fatalf("start: %s", res.Content)
	}
	_, res = call(t, tools["terminal_continue"], `{"sessionId":"term-1","stdin":"touch made.txt; echo done-$((6*7))\n"}`)
	if !strings.Contains(res.Content, "done-42") {
		t.Fatalf("continue: %s", res.Content)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err == nil {
		t.Error("input typed into the sandboxed session wrote the workspace")
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.wheres) != 1 || rec.wheres[0].Isolation != policy.IsolationNone {
		t.Errorf("input judged as on %+v, want the unsandboxed host it was decided for", rec.wheres)
	}
}
