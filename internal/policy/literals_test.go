package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/cmdbase"
)

// notPrograms are words the policy's code spells that are also the name
// of some program of the base, each with what it is there.
var notPrograms = map[string]string{
	"write": "the category of a write and the name of the write_file tool's deny rule",
	"copy":  "the category of a copy", "move": "the category of a move", "mkdir": "the category of a mkdir",
	"read": "the category of a read",
	"fd":   "/proc's directory of a process's open files",
}

// TestNoProgramNamesInPolicy holds the policy to asking the command base
// what a program is and does (its traits, forms, options, how it is
// shown): no string literal of its code is a program's name, not even a
// subcommand or an option that happens to be one.
func TestNoProgramNamesInPolicy(t *testing.T) {
	names := map[string]bool{}
	for _, n := range cmdbase.UnixNames() {
		names[n] = true
	}
	for _, n := range cmdbase.WindowsNames() {
		names[n] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if _, ok := n.(*ast.ImportSpec); ok {
				return false
			}
			bl, ok := n.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(bl.Value)
			if err != nil || len(s) < 2 || strings.ContainsAny(s, " /\\") {
				return true
			}
			if (names[s] || names[strings.ToLower(s)]) && notPrograms[s] == "" {
				t.Errorf("%s: %q is a program's name: ask the command base", fset.Position(bl.Pos()), s)
			}
			return true
		})
	}
}
