package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/proctest"
	"github.com/nb-cli/nb/internal/testenv"
)

// gitCase is one way to make git run a program outside the sandbox later
// from a file that does not exist yet, or lies where only git knows to
// look: set up (outside, before the sandbox), the sandboxed attack, and
// the git command the user runs outside afterwards.
type gitCase struct {
	name    string
	setup   func(t *testing.T, w world, canary string)
	attack  string
	trigger []string
	// launch is the workspace, relative to w.ws ("" for w.ws itself).
	launch string
}

func hook(canary string) string {
	return `printf '#!/bin/sh\ntouch ` + canary + `\n'`
}

func fsmonitor(canary string) string {
	return `printf '[core]\n\tfsmonitor = "touch ` + canary + `"\n'`
}

var gitCases = []gitCase{
	{name: "include target not there yet",
		setup:   func(t *testing.T, w world, _ string) { gitRun(t, w, w.ws, "config", "include.path", "../later.cfg") },
		attack:  fsmonitor("CANARY") + " > later.cfg",
		trigger: []string{"status"}},
	{name: "includeIf target not there yet",
		setup: func(t *testing.T, w world, _ string) {
			gitRun(t, w, w.ws, "config", "includeIf.onbranch:**.path", "../cfg/when.cfg")
		},
		attack:  "mkdir -p cfg && " + fsmonitor("CANARY") + " > cfg/when.cfg",
		trigger: []string{"status"}},
	{name: "hooksPath not there yet",
		setup: func(t *testing.T, w world, _ string) {
			gitRun(t, w, w.ws, "config", "core.hooksPath", "tools/git-hooks")
		},
		attack:  "mkdir -p tools/git-hooks && " + hook("CANARY") + " > tools/git-hooks/post-checkout && chmod +x tools/git-hooks/post-checkout",
		trigger: []string{"checkout", "-q", "-b", "next"}},
	{name: "relative global hooksPath",
		setup: func(t *testing.T, w world, _ string) {
			mustWrite(t, filepath.Join(w.home, ".gitconfig"), "[core]\n\thooksPath = ci/hooks\n")
		},
		attack:  "mkdir -p ci/hooks && " + hook("CANARY") + " > ci/hooks/post-checkout && chmod +x ci/hooks/post-checkout",
		trigger: []string{"checkout", "-q", "-b", "next"}},
	{name: "workspace below the top",
		setup: func(t *testing.T, w world, _ string) {
			gitRun(t, w, w.ws, "config", "core.hooksPath", "sub/hooks")
			mustWrite(t, filepath.Join(w.ws, "sub", "inc.cfg"), "[x]\n\ty = 1\n")
			gitRun(t, w, w.ws, "config", "include.path", "../sub/inc.cfg")
		},
		launch:  "sub",
		attack:  "mkdir -p hooks && " + hook("CANARY") + " > hooks/post-checkout && chmod +x hooks/post-checkout; " + fsmonitor("CANARY") + " >> inc.cfg",
		trigger: []string{"checkout", "-q", "-b", "next"}},
	{name: "nested repository deep down",
		setup: func(t *testing.T, w world, _ string) {
			deep := filepath.Join(w.ws, "a", "b", "c", "d", "e", "repo")
			if err := os.MkdirAll(deep, 0o755); err != nil {
				t.Fatal(err)
			}
			gitRun(t, w, deep, "init", "-q")
			mustWrite(t, filepath.Join(deep, "f"), "f")
			gitRun(t, w, deep, "add", "f")
			gitRun(t, w, deep, "commit", "-qm", "x")
		},
		attack:  "cd a/b/c/d/e/repo && " + fsmonitor("CANARY") + " >> .git/config",
		trigger: []string{"-C", "a/b/c/d/e/repo", "status"}},
}

// Files git reads that do not exist yet, or that only git knows to look
// for, written from inside the workspace sandbox, must not make the
// user's own git run a program afterwards. Each case first runs
// unsandboxed, to show it works there.
func TestGitReadsProtected(t *testing.T) {
	proctest.Check(t)
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git is needed for the repository")
	}
	mechs := withPlain(mechanisms(t))
	for _, c := range gitCases {
		t.Run(c.name, func(t *testing.T) {
			for _, mech := range append([]string{"control"}, mechs...) {
				w, canary := gitCaseWorld(t, c)
				dir := filepath.Join(w.ws, c.launch)
				attack := strings.ReplaceAll(c.attack, "CANARY", canary)
				if mech == "control" {
					l := &host.Local{}
					r, err := l.Run(context.Background(), &host.Command{Script: attack, Dir: dir, Timeout: 15 * time.Second})
					l.Close()
					if err != nil || r.Code != 0 {
						t.Fatalf("control attack: %v %+v", err, r)
					}
				} else {
					o := Options{Mechanism: mech, LaunchDir: dir, Home: w.home, Quarantine: filepath.Join(w.root, "state", "quarantine")}
					if mech == mechanismLandlockPlain {
						o.Mechanism, o.noNamespaces = MechanismLandlock, true
					}
					before := snapshot(t, w.ws)
					h, err := New(o)
					if err != nil {
						t.Fatal(err)
					}
					sh(t, h, dir, attack)
					if err := h.Close(); err != nil {
						t.Fatal(err)
					}
					for p := range snapshot(t, w.ws) {
						if _, ok := before[p]; !ok {
							t.Errorf("%s: %s left in the workspace", mech, p)
						}
					}
				}
				gitRun(t, w, w.ws, c.trigger...)
				_, err := os.Stat(canary)
				switch {
				case mech == "control" && err != nil:
					t.Fatalf("the attack does not work unsandboxed, so the test proves nothing")
				case mech != "control" && err == nil:
					t.Errorf("%s: git outside ran a program planted from inside the sandbox", mech)
				}
			}
		})
	}
}

// gitCaseWorld is a world whose workspace is a repository with a commit,
// set up for c, with git's and the sandbox's idea of home at w.home.
func gitCaseWorld(t *testing.T, c gitCase) (world, string) {
	w := newWorld(t)
	t.Setenv("HOME", w.home) // the home the sandbox's git questions read
	canary := filepath.Join(w.outside, "CANARY")
	gitRun(t, w, w.ws, "init", "-q", "-b", "main")
	gitRun(t, w, w.ws, "add", "main.txt")
	gitRun(t, w, w.ws, "commit", "-qm", "init")
	c.setup(t, w, canary)
	return w, canary
}

// Every entry of the run-later list, existing, is read-only at any depth;
// created from inside, it does not stay in the workspace.
func TestRunLaterListCanaries(t *testing.T) {
	proctest.Check(t)
	for _, mech := range withPlain(mechanisms(t)) {
		t.Run(mech, func(t *testing.T) {
			w := newWorld(t)
			deep := filepath.Join("x", "y", "z", "v", "u")
			// existing entries, at the top and five levels down
			for _, base := range []string{"", deep} {
				for _, e := range RunLater {
					p := filepath.Join(w.ws, base, e)
					if runLaterDirs[e] {
						p = filepath.Join(p, "keep")
					}
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					mustWrite(t, p, "original")
				}
			}
			h := newHost(t, w, mech, false)
			var script []string
			for _, base := range []string{".", deep} {
				for _, e := range RunLater {
					p := filepath.Join(base, e)
					if runLaterDirs[e] {
						script = append(script, "echo CANARY >> "+p+"/keep", "echo CANARY > "+p+"/new")
					} else {
						script = append(script, "echo CANARY >> "+p)
					}
				}
			}
			sh(t, h, w.ws, strings.Join(script, "; ")+"; true")
			for _, base := range []string{"", deep} {
				for _, e := range RunLater {
					p := filepath.Join(w.ws, base, e)
					if runLaterDirs[e] {
						noFile(t, filepath.Join(p, "new"))
						p = filepath.Join(p, "keep")
					}
					if b, _ := os.ReadFile(p); string(b) != "original" {
						t.Errorf("%s written in the sandbox: %q", p, b)
					}
				}
			}

			// new entries, in a fresh tree, at the top and deep down
			fresh := newWorld(t)
			hf := newHost(t, fresh, mech, false)
			script = script[:0]
			for _, base := range []string{".", deep} {
				for _, e := range RunLater {
					if e == ".git" {
						continue // covered before it exists (TestEscapes)
					}
					p := filepath.Join(base, e)
					if runLaterDirs[e] {
						script = append(script, "mkdir -p "+p+" && echo CANARY > "+p+"/new")
					} else {
						script = append(script, "mkdir -p "+filepath.Dir(p)+" && echo CANARY > "+p)
					}
				}
			}
			sh(t, hf, fresh.ws, strings.Join(script, "; ")+"; true")
			for _, base := range []string{"", deep} {
				for _, e := range RunLater {
					if e != ".git" {
						noFile(t, filepath.Join(fresh.ws, base, e))
					}
				}
			}
		})
	}
}
