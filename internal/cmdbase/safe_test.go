package cmdbase_test

import (
	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/policy"
	"strings"
	"testing"
)

// safeGroup is a group of examples of a safe-list family: commands that
// must be allowed and commands that must ask (options that write, run
// programs or reach the network, unknown options, secret files as
// operands).
type safeGroup struct {
	group      string
	allow, ask []string
}

// checkSafeExamples decides every example through Decide.
func checkSafeExamples(t *testing.T, groups []safeGroup) {
	t.Helper()
	e := newEngine(t)
	for _, g := range groups {
		for _, cmd := range g.allow {
			if d := decideCmd(e, cmd, testCC); d.Decision != policy.Allow {
				t.Errorf("%s: %q: %s, want allow (%s)", g.group, cmd, d.Decision, strings.Join(d.Reasons, "; "))
			}
		}
		for _, cmd := range g.ask {
			if d := decideCmd(e, cmd, testCC); d.Decision == policy.Allow {
				t.Errorf("%s: %q allowed, want it asked", g.group, cmd)
			}
		}
	}
}

// versionExamples are the programs on no family table that the safe list
// knows only by the version queries the command base lists for them
// (addVersions).
var versionExamples = []safeGroup{
	{"version queries of programs on no family table",
		[]string{
			"apt-get --version", "bash --version", "bat --version", "batcat -V", "bun --version", "cc --version",
			"clang --version", "cmake --version", "deno --version", "emacs --version", "fdfind --version", "fzf --version",
			"g++ --version", "gcc --version", "helm version", "htop --version", "java -version", "javac -version", "lua -v",
			"make --version", "mysql --version", "mysqldump -V", "nano --version", "nginx -v", "node --version", "nodejs -v",
			"perl -v", "pg_dump --version", "php -v", "psql --version", "python2 --version", "python3 --version", "python -V",
			"ruby -v", "screen -v", "shellcheck --version", "sqlite3 --version", "tmux -V", "vim --version", "zsh --version",
			"cp --help", "ln --version", "install --help", "touch --version", "mkdir --help",
			"chmod --help", "chown --version", "chgrp --help", "truncate --help", "tee --version",
			// network tools print their version without reaching the network
			"ssh -V", "openssl version"},
		[]string{
			"bash x.sh", "gcc x.c", "helm install x", "java -jar x.jar", "make install", "mysql -e 'drop table x'",
			"nginx -s stop", "node x.js", "python3 -c 'import os'", "screen -S x", "tmux kill-server", "vim x",
			"zsh -c 'rm x'", "cp --help a b", "cp -r --help a b", "ln --version a b", "tee --help x",
			"chmod -R --help x", "mkdir --help x", "ssh -V host", "ssh host -V", "openssl s_client -connect x:443", "openssl version x"}},
	{"version and help",
		[]string{
			"make --help", "node --help", "python3 --help", "vim --version", "emacs --version", "psql --version",
			"vi --version", "view --version", "vimdiff --version", "rvim --version", "gvim --version", "ex --version", "nvim --version",
			"sqlite3 --version", "nginx -v", "apt-get --version"},
		[]string{
			"vim x", "vim --version x", "nginx", "nginx -s stop", "make", "make --help install", "node x.js", "node --help x",
			"python3 --help -c 'import os'", "psql -c 'drop table x'", "psql", "sqlite3 x.db", "cargo --version",
			"yarn --version", "terraform version", "mvn -v", "gradle --version", "java -help",
			"apt-get install x"}},
}

func TestSafeVersions(t *testing.T) { checkSafeExamples(t, versionExamples) }

// allSafeExamples are every family's examples.
func allSafeExamples() [][]safeGroup {
	return [][]safeGroup{languagesExamples, coreutilsExamples, textExamples, containersExamples,
		systemExamples, packagesExamples, versionExamples, {entryGroup()}}
}

// entryGroup are the examples of the entries' own literals (examples.go)
// as one group: Allow must be allowed, Ask and Warn asked.
func entryGroup() safeGroup {
	g := safeGroup{group: "the entries' own examples"}
	for _, x := range cmdbase.EntryExamples() {
		if x.Want == "allow" {
			g.allow = append(g.allow, x.Command)
		} else {
			g.ask = append(g.ask, x.Command)
		}
	}
	return g
}

// exampleNames are the commands (first words) of the examples.
func exampleNames(groups [][]safeGroup) (allowed, asked map[string]bool) {
	allowed, asked = map[string]bool{}, map[string]bool{}
	for _, gs := range groups {
		for _, g := range gs {
			for _, c := range g.allow {
				allowed[strings.Fields(c)[0]] = true
			}
			for _, c := range g.ask {
				asked[strings.Fields(c)[0]] = true
			}
		}
	}
	return allowed, asked
}

// Every name on the safe list has an example that must be allowed, and
// every entry of a family table with a check or a grammar (a form that is
// not read-only) one that must ask.
func TestEverySafeNameHasExamples(t *testing.T) {
	allowed, asked := exampleNames(allSafeExamples())
	for _, name := range cmdbase.SafeNames() {
		if !allowed[name] {
			t.Errorf("%s is on the safe list without an example that must be allowed", name)
		}
	}
	for _, name := range cmdbase.SafeChecked() {
		if !asked[name] {
			t.Errorf("%s has a check but no example that must ask", name)
		}
	}
}

// A command's read-only grammar is in the family file of its program
// entry (safe_<family>.go beside unix_<family>.go).
func TestSafeListFamiliesMatchTheBase(t *testing.T) {
	for _, n := range cmdbase.SafeFamilyMismatches() {
		t.Errorf("%s: its safe-list family is not its family in the program base", n)
	}
}

// Every entry of the long-tail table parses its own options: an option
// the manual does not document as read-only asks.
func TestLongTailUnknownOptionsAsk(t *testing.T) {
	e := newEngine(t)
	for name, letters := range cmdbase.SafeGrammarLetters() {
		for _, bad := range []string{"--nb-unknown-option", "-j9"} {
			cmd := name + " " + bad
			if strings.ContainsRune(letters, 'j') && bad == "-j9" {
				continue
			}
			if d := decideCmd(e, cmd, testCC); d.Decision == policy.Allow {
				t.Errorf("%q allowed", cmd)
			}
		}
	}
}
