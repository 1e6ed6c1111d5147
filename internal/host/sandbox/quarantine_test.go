package sandbox

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/hosttest"
	"github.com/nb-cli/nb/internal/host/sandbox/enter"
	"github.com/nb-cli/nb/internal/testenv"
)

// plantScript creates, from inside the sandbox, entries that would run
// outside it later: pre-commit's configuration, direnv's .envrc, a VS Code
// task run when the folder opens, a repository in a subdirectory whose
// core.fsmonitor runs at the user's next git status there, and a symlink
// planted at a protected name. Ordinary files are created alongside.
func plantScript(canary, linkTarget string) string {
	return strings.Join([]string{
		`printf 'repos:\n- repo: local\n  hooks:\n  - id: x\n    entry: touch ` + canary + `\n    language: system\n' > .pre-commit-config.yaml`,
		`echo 'touch ` + canary + `' > .envrc`,
		`mkdir -p .vscode && echo '{"tasks":[{"command":"touch ` + canary + `","runOptions":{"runOn":"folderOpen"}}]}' > .vscode/tasks.json`,
		`git init -q sub/repo && cd sub/repo && echo f > f && git add f && git -c user.name=t -c user.email=t@t commit -qm x && git config core.fsmonitor "touch ` + canary + `" && cd ../..`,
		`mkdir -p a/b && ln -s ` + linkTarget + ` a/b/.tool-versions`,
		`echo keep > notes.txt && mkdir -p a/b/c && echo keep > a/b/c/data.txt && echo keep > sub/plain.yaml`,
	}, " && ")
}

var planted = []string{".pre-commit-config.yaml", ".envrc", ".vscode", "sub/repo/.git", "a/b/.tool-versions"}

// Entries that would run outside the sandbox, created by a sandboxed
// command, are moved to the quarantine after it, named in its result; the
// user's own git status then runs nothing. The control run (the same
// script outside the sandbox) shows the repository's fsmonitor would run.
func TestNewRunLaterEntriesQuarantined(t *testing.T) {
	testenv.Tool(t, "git")
	t.Run("control", func(t *testing.T) {
		w := newWorld(t)
		canary := filepath.Join(w.outside, "CANARY")
		l := &host.Local{}
		r := hosttest.Exec(t, context.Background(), l, host.Command{Script: plantScript(canary, filepath.Join(w.outside, "readme")), Dir: w.ws, Timeout: 15 * time.Second})
		l.Close()
		gitRun(t, w, filepath.Join(w.ws, "sub", "repo"), "status")
		if _, err := os.Stat(canary); err != nil {
			t.Fatalf("the planted repository runs nothing unsandboxed, so the test proves nothing: %s%s", r.Stdout, r.Stderr)
		}
	})
	for _, mech := range withPlain(mechanisms(t)) {
		t.Run(mech, func(t *testing.T) {
			w := newWorld(t)
			canary := filepath.Join(w.outside, "CANARY")
			target := filepath.Join(w.outside, "readme")
			h := newHost(t, w, mech, false)
			// Without namespaces Landlock refuses new entries at the top
			// of the workspace (it holds .git): plant one level down.
			dir, base := w.ws, ""
			if mech == mechanismLandlockPlain {
				dir, base = filepath.Join(w.ws, "sub"), "sub/"
			}
			planted := slices.Clone(planted)
			for i := range planted {
				planted[i] = base + planted[i]
			}
			var o, e bytes.Buffer
			ex, err := h.Run(context.Background(), &host.Command{Script: plantScript(canary, target), Dir: dir, Stdout: &o, Stderr: &e, Timeout: 15 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if ex.Code != 0 {
				t.Fatalf("the script failed in the sandbox (%d): %s%s", ex.Code, o.String(), e.String())
			}
			msgs := strings.Join(ex.Notes, "\n")
			for _, rel := range planted {
				p := filepath.Join(w.ws, rel)
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("%s is still in the workspace", rel)
				}
				prefix := "nb removed " + rel + " created inside the sandbox (it would run outside it); kept at "
				var kept string
				for _, n := range ex.Notes {
					if rest, ok := strings.CutPrefix(n, prefix); ok {
						kept = rest
					}
				}
				if kept == "" {
					t.Errorf("the result does not name %s: %q", rel, msgs)
					continue
				}
				if !within(kept, filepath.Join(w.root, "state", "quarantine")) {
					t.Errorf("%s kept outside the quarantine: %s", rel, kept)
				}
				if _, err := os.Lstat(kept); err != nil {
					t.Errorf("%s is not in the quarantine: %v", rel, err)
				}
				if strings.HasSuffix(rel, "sub/repo/.git") {
					if b, _ := os.ReadFile(filepath.Join(kept, "config")); !strings.Contains(string(b), "fsmonitor") {
						t.Errorf("the quarantined repository lost its config: %q", b)
					}
				}
				if strings.HasSuffix(rel, "a/b/.tool-versions") {
					fi, err := os.Lstat(kept)
					if err != nil || fi.Mode()&os.ModeSymlink == 0 {
						t.Errorf("the planted link was not moved as a link: %v %v", fi, err)
					}
				}
			}
			if len(ex.Notes) != len(planted) {
				t.Errorf("notes: %q", msgs)
			}
			if b, err := os.ReadFile(target); err != nil || string(b) != "public" {
				t.Errorf("the link's target was touched: %q %v", b, err)
			}
			for _, f := range []string{"notes.txt", "a/b/c/data.txt", "sub/plain.yaml", "sub/repo/f"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("ordinary file %s removed: %v", f, err)
				}
			}
			gitRun(t, w, filepath.Join(dir, "sub", "repo"), "status")
			gitRun(t, w, w.ws, "status")
			if _, err := os.Stat(canary); err == nil {
				t.Fatal("git status outside the sandbox ran a program planted from inside it")
			}
			// Entries that existed before a command are the user's: kept.
			mustWrite(t, filepath.Join(w.ws, ".envrc"), "export A=1\n")
			if ex, err = h.Run(context.Background(), &host.Command{Script: "true", Dir: w.ws, Timeout: 15 * time.Second}); err != nil || len(ex.Notes) != 0 {
				t.Errorf("a run that created nothing: %v %q", err, ex.Notes)
			}
			if _, err := os.Stat(filepath.Join(w.ws, ".envrc")); err != nil {
				t.Error("the user's own .envrc was removed")
			}
		})
	}
}

// A process the command leaves behind cannot plant an entry after the
// check: every process of the sandbox has ended when the command's result
// comes back.
func TestNoStragglerAfterSweep(t *testing.T) {
	for _, mech := range withPlain(mechanisms(t)) {
		t.Run(mech, func(t *testing.T) {
			w := newWorld(t)
			h := newHost(t, w, mech, false)
			script := `(setsid sh -c 'sleep 1; echo x > .envrc; echo x > sub/.envrc' </dev/null >/dev/null 2>&1 &) ; (sh -c 'sleep 1; echo x > .mise.toml' </dev/null >/dev/null 2>&1 &); true`
			if mech != MechanismBwrap && enter.LandlockABI() >= 6 {
				// Landlock's signal scope keeps the command from ending
				// nb's supervisor (older kernels cannot refuse it).
				script = "kill -KILL $PPID; " + script
			}
			sh(t, h, w.ws, script)
			time.Sleep(2 * time.Second)
			for _, f := range []string{".envrc", "sub/.envrc", ".mise.toml"} {
				noFile(t, filepath.Join(w.ws, f))
			}
		})
	}
}

// A terminal session's new entries are moved when it closes, and the next
// command's result tells it.
func TestTerminalSessionQuarantined(t *testing.T) {
	for _, mech := range mechanisms(t) {
		t.Run(mech, func(t *testing.T) {
			w := newWorld(t)
			h := newHost(t, w, mech, false)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			term, err := h.StartPTY(ctx, &host.PTYCommand{Script: "echo 'touch x' > sub/.envrc; echo done", Dir: w.ws})
			if err != nil {
				t.Fatal(err)
			}
			out, _ := io.ReadAll(term)
			<-term.Done()
			if !strings.Contains(string(out), "done") {
				t.Fatalf("terminal output %q", out)
			}
			term.Close()
			noFile(t, filepath.Join(w.ws, "sub", ".envrc"))
			ex, err := h.Run(ctx, &host.Command{Script: "true", Dir: w.ws, Timeout: 15 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if len(ex.Notes) != 1 || !strings.HasPrefix(ex.Notes[0], "nb removed sub/.envrc created inside the sandbox") {
				t.Errorf("notes %q", ex.Notes)
			}
			if ex, _ = h.Run(ctx, &host.Command{Script: "true", Dir: w.ws, Timeout: 15 * time.Second}); len(ex.Notes) != 0 {
				t.Errorf("told twice: %q", ex.Notes)
			}
		})
	}
}

// On another file system than the workspace the quarantine gets a copy
// (links as links, nothing followed) and the entry is removed.
func TestQuarantineAcrossFileSystems(t *testing.T) {
	q, err := os.MkdirTemp("/dev/shm", "nb-q-")
	if err != nil {
		t.Skip("no /dev/shm: ", err)
	}
	t.Cleanup(func() { os.RemoveAll(q) })
	w := newWorld(t)
	if err := os.Rename(w.ws, filepath.Join(q, "probe")); err == nil || !strings.Contains(err.Error(), "cross-device") {
		t.Skip("/dev/shm is on the workspace's file system")
	}
	h := &Host{layout: Layout{Writable: []string{w.ws}}, created: map[string]bool{}, qparent: q}
	before := h.snapshot()
	repo := filepath.Join(w.ws, "sub", "r", ".git")
	if err := os.MkdirAll(filepath.Join(repo, "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(repo, "config"), "[core]\n\tfsmonitor = touch x\n")
	if err := os.Symlink(filepath.Join(w.outside, "readme"), filepath.Join(repo, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(repo, "objects"), 0o500); err != nil {
		t.Fatal(err)
	}
	notes := h.sweep(before)
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "nb removed sub/r/.git created inside the sandbox (it would run outside it); kept at "+q) {
		t.Fatalf("notes %q", notes)
	}
	noFile(t, repo)
	kept := strings.TrimPrefix(notes[0], "nb removed sub/r/.git created inside the sandbox (it would run outside it); kept at ")
	if b, _ := os.ReadFile(filepath.Join(kept, "config")); !strings.Contains(string(b), "fsmonitor") {
		t.Errorf("config not kept: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(kept, "link")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link not kept as a link: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(w.outside, "readme")); string(b) != "public" {
		t.Errorf("link target touched: %q", b)
	}
}

// A command that ignores SIGTERM and times out: nb's SIGKILL to its
// process group must not end the Landlock supervisor before it has ended
// the processes that left the group.
func TestNoStragglerAfterTimeout(t *testing.T) {
	for _, mech := range withPlain(mechanisms(t)) {
		t.Run(mech, func(t *testing.T) {
			w := newWorld(t)
			h := newHost(t, w, mech, false)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			ex, err := h.Run(ctx, &host.Command{Script: `trap '' TERM; (setsid sh -c 'trap "" TERM HUP; sleep 1; echo x > sub/.envrc' </dev/null >/dev/null 2>&1 &); sleep 30`,
				Dir: w.ws, Timeout: 300 * time.Millisecond, KillGrace: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if !ex.TimedOut {
				t.Fatalf("not timed out: %+v", ex)
			}
			time.Sleep(1500 * time.Millisecond)
			noFile(t, filepath.Join(w.ws, "sub", ".envrc"))
		})
	}
}
