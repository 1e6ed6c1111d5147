package testenv

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// ImportsOnly fails t when a source file of the package in the current
// directory (its tests aside) imports anything but the standard library
// and the modules whose paths start with one of allowed ("golang.org/x/sys/").
// A package that takes over a process from its init (the sandbox's helper,
// the guard) keeps its imports few so that it starts early.
func ImportsOnly(t *testing.T, allowed ...string) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); !strings.Contains(first, ".") {
				continue // the standard library
			}
			ok := false
			for _, a := range allowed {
				ok = ok || strings.HasPrefix(path+"/", a)
			}
			if !ok {
				t.Errorf("%s imports %s: the package would wait for its initialisation", f, path)
			}
		}
	}
}
