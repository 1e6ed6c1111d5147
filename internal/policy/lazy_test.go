package policy

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestFirstDecisionsRaceFree runs the test binary again, so that nothing
// but package initialisation ran before: there the tables built on first
// use (this package's, the command base's, the secret list's) are first
// used by many decisions at once, which must be what the same decisions
// are once everything is built. Under -race a data race fails the child.
func TestFirstDecisionsRaceFree(t *testing.T) {
	if testenv.FreshProcess(t) {
		firstDecisions(t)
	}
}

func firstDecisions(t *testing.T) {
	e := newEngine(t, nil)
	where := CommandContext{Cwd: "/p", Home: "/home/u"}
	actions := []Action{
		{Kind: RunCommand, Command: "cat ~/.ssh/id_rsa", Where: where},
		{Kind: RunCommand, Command: "grep -r token ~", Where: where},
		{Kind: RunCommand, Command: "grep -r token /home/u/proj/src", Where: where},
		{Kind: RunCommand, Command: "ls -R /home/u/.config", Where: where},
		{Kind: RunCommand, Command: "git log HEAD~3..HEAD", Where: where},
		{Kind: RunCommand, Command: "batcat README.md | sort -u", Where: where},
		{Kind: RunCommand, Command: "rm -rf build", Where: where},
		{Kind: RunCommand, Command: "echo $GITHUB_TOKEN", Where: where},
		{Kind: SessionInput, Session: "term-1", Program: "python3", Input: "import os; os.system('ls')\n", Where: where},
		{Kind: SessionInput, Session: "term-1", Program: "psql", Input: "select 1;\n", Where: where},
	}
	const each = 4
	got := make([][]byte, len(actions)*each)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = json.Marshal(e.Decide(actions[i/each]))
		}()
	}
	wg.Wait()
	for i := range got {
		a := actions[i/each]
		want, _ := json.Marshal(e.Decide(a))
		if string(got[i]) != string(want) {
			t.Errorf("%v %q: first decided %s, then %s", a.Kind, a.Command+a.Input, got[i], want)
		}
	}
}
