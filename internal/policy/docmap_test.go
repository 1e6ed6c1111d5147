package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPipelineMapNamesWhatExists: the package's opening comment is the
// map a newcomer reads (pipeline.go); every Engine method, function,
// type and file it names exists, so the map cannot drift from the code.
func TestPipelineMapNamesWhatExists(t *testing.T) {
	_, parsed := parseSources(t, ".", parser.ParseComments)
	names, files := map[string]bool{}, map[string]bool{}
	var doc string
	for fn, f := range parsed {
		files[fn] = true
		if fn == "pipeline.go" {
			doc = f.Doc.Text()
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				names[d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						names[ts.Name.Name] = true
					}
				}
			}
		}
	}
	if !strings.Contains(doc, "# Deciding a command: the map") {
		t.Fatalf("pipeline.go's opening comment has no map:\n%s", doc)
	}
	for _, m := range regexp.MustCompile(`Engine\.(\w+)`).FindAllStringSubmatch(doc, -1) {
		if !names[m[1]] {
			t.Errorf("the map names Engine.%s, which does not exist", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`\b(\w+)\.go\b`).FindAllStringSubmatch(doc, -1) {
		if !files[m[0]] && !strings.HasSuffix(m[0], "_test.go") {
			t.Errorf("the map names %s, which is not a file of the package", m[0])
		}
	}
	for _, n := range []string{"leafInfo", "assessment", "ruling", "script", "memoize", "secretExpansion", "fetchThenRun", "denies", "mightDeny", "ruleFor", "leafRule"} {
		if !strings.Contains(doc, n) || !names[n] {
			t.Errorf("%s: in the map %v, in the code %v", n, strings.Contains(doc, n), names[n])
		}
	}
}

// TestNoLongFunctions: no function of the policy room (policy,
// shellparse, winshell, cmdbase) is longer than 80 lines. A table is a
// package-level value, not a function, so none needs an exception.
func TestNoLongFunctions(t *testing.T) {
	for _, dir := range []string{".", "../shellparse", "../winshell", "../cmdbase"} {
		fset, parsed := parseSources(t, dir, 0)
		n := 0
		for _, f := range parsed {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				n++
				from, to := fset.Position(fd.Pos()), fset.Position(fd.End())
				if lines := to.Line - from.Line + 1; lines > 80 {
					t.Errorf("%s:%d: %s is %d lines long, over 80", from.Filename, from.Line, fd.Name.Name, lines)
				}
			}
		}
		if n < 50 {
			t.Fatalf("%s: only %d functions read", dir, n)
		}
	}
}

// parseSources parses the Go files of dir that are not tests, by name.
func parseSources(t *testing.T, dir string, mode parser.Mode) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset, out := token.NewFileSet(), map[string]*ast.File{}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		out[n] = f
	}
	return fset, out
}
