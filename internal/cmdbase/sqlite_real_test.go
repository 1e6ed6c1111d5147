//go:build unix

package cmdbase_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/testenv"
)

// TestSQLiteDotCommandsListed: every dot-command the installed sqlite3
// lists is in SQLiteDot, judged as reaching outside the database or not:
// a command a newer sqlite3 adds fails here until it is judged.
func TestSQLiteDotCommandsListed(t *testing.T) {
	sqlite := testenv.Tool(t, "sqlite3")
	out, err := exec.Command(sqlite, ":memory:", ".help -all").CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3 .help: %v %s", err, out)
	}
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		// a command's line starts with its name; its usage lines are indented
		name, ok := strings.CutPrefix(strings.Fields(line + " x")[0], ".")
		if !ok || name == "" || !strings.HasPrefix(line, ".") {
			continue
		}
		n++
		if _, known := cmdbase.SQLiteDot[name]; !known {
			t.Errorf("sqlite3 has .%s, which SQLiteDot does not judge", name)
		}
	}
	if n < 40 {
		t.Fatalf("read %d commands from sqlite3's .help:\n%s", n, out)
	}
}

// TestSQLiteEffectsAgainstRealSQLite: whenever the real sqlite3 runs a
// program or writes a file for a dot-command, by its whole name or any
// prefix it takes, or for an SQL function, nb warns of the same command
// line, and of the same line typed into a sqlite3 session.
func TestSQLiteEffectsAgainstRealSQLite(t *testing.T) {
	sqlite := testenv.Tool(t, "sqlite3")
	e := newEngine(t)
	// each case: the statements around the command's name, with C the
	// canary file the effect creates
	cases := map[string][]string{
		"shell":  {".%s touch C"},
		"system": {".%s touch C"},
		"output": {".%s C", "select 1;"},
		"once":   {".%s C", "select 1;"},
		"save":   {".%s C"},
		"backup": {".%s C"},
		"clone":  {".%s C"},
		"log":    {".%s C", "select 1;"},
		"trace":  {".%s C", "select 1;"},
		"open":   {".%s C", "create table t(a);"},
		"read":   {".%s R"},
	}
	effects := 0
	for name, stmts := range cases {
		if !cmdbase.SQLiteDot[name] {
			t.Errorf(".%s: a case for a command SQLiteDot holds harmless", name)
		}
		for n := 1; n <= len(name); n++ {
			args := []string{"x.db"}
			for _, s := range stmts {
				args = append(args, strings.Replace(s, "%s", name[:n], 1))
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "R"), []byte(".shell touch C\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(sqlite, args...)
			cmd.Dir = dir
			_, _ = cmd.CombinedOutput() // an ambiguous prefix may fail: what it did is what counts
			_, err := os.Stat(filepath.Join(dir, "C"))
			did := err == nil
			if n == len(name) && !did {
				t.Fatalf("sqlite3 %q made no C: the case tests nothing", args)
			}
			if !did {
				continue
			}
			effects++
			line := "sqlite3"
			for _, a := range args {
				line += " '" + a + "'"
			}
			if d := decideCmd(e, line, testCC); !d.Warn || d.Decision == policy.Allow {
				t.Errorf("%s: sqlite3 made C; nb decided %v without a warning (%+v)", line, d.Decision, d)
			}
			for _, s := range args[1:] {
				if !strings.HasPrefix(s, ".") {
					continue
				}
				d := e.Decide(policy.Action{Kind: policy.SessionInput, Session: "term-2", Program: "sqlite3", SessionProgram: "sqlite3", Input: s + "\n", Where: testCC})
				if !d.Warn || d.Decision == policy.Allow {
					t.Errorf("%q typed into sqlite3: sqlite3 made C; nb decided %v without a warning", s, d.Decision)
				}
			}
		}
	}
	if effects < 2*len(cases) {
		t.Fatalf("only %d spellings had an effect", effects)
	}
	// the SQL functions that write files or load code
	for _, sql := range []string{"select writefile('C', 'x');"} {
		dir := t.TempDir()
		cmd := exec.Command(sqlite, ":memory:", sql)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sqlite3 %q: %v %s", sql, err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "C")); err != nil {
			t.Fatalf("sqlite3 %q made no C: the case tests nothing", sql)
		}
		line := "sqlite3 :memory: \"" + sql + "\""
		if d := decideCmd(e, line, testCC); !d.Warn {
			t.Errorf("%s: sqlite3 wrote C; nb decided %v without a warning", line, d.Decision)
		}
	}
	for _, line := range []string{"sqlite3 x.db \"select load_extension('./e.so')\"", "sqlite3 -cmd '.sh id' x.db", "sqlite3 x.db \"select edit('a', 'vi')\""} {
		if d := decideCmd(e, line, testCC); !d.Warn {
			t.Errorf("%s: nb decided %v without a warning", line, d.Decision)
		}
	}
	// what only shows the database is asked as before, without a warning
	for _, line := range []string{"sqlite3 x.db .tables", "sqlite3 x.db '.schema t'", "sqlite3 x.db 'select * from t'", "sqlite3 -header x.db 'select 1'"} {
		if d := decideCmd(e, line, testCC); d.Warn {
			t.Errorf("%s: warned (%+v)", line, d)
		}
	}
}
