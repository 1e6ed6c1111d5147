package enter

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestFewImports: the helper takes over in this package's init, which Go
// runs once what the package imports is initialised. An import of the
// rest of nb, or of a module with a heavy initialisation, would make every
// sandboxed command wait for it: only the standard library, x/sys and
// go-landlock may be imported.
func TestFewImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	allowed := []string{"golang.org/x/sys/", "github.com/landlock-lsm/go-landlock/"}
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
			first, _, _ := strings.Cut(path, "/")
			if !strings.Contains(first, ".") {
				continue // the standard library
			}
			ok := false
			for _, a := range allowed {
				ok = ok || strings.HasPrefix(path+"/", a)
			}
			if !ok {
				t.Errorf("%s imports %s: the helper would wait for its initialisation", f, path)
			}
		}
	}
}
