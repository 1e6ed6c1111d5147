package testenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestToolFindsAndMisses: a present tool is found; a missing one fails the
// test under CI=true (checked in a subprocess run of this test binary).
func TestToolFindsAndMisses(t *testing.T) {
	if os.Getenv("NB_TESTENV_CHILD") == "1" {
		Tool(t, "nb-no-such-program")
		return
	}
	if p := Tool(t, "sh"); p == "" {
		t.Fatal("sh not found")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, ci := range []string{"true", ""} {
		cmd := exec.Command(exe, "-test.run=^TestToolFindsAndMisses$", "-test.count=1")
		cmd.Env = append(os.Environ(), "NB_TESTENV_CHILD=1", "CI="+ci)
		out, err := cmd.CombinedOutput()
		failed := err != nil
		if failed != (ci == "true") {
			t.Errorf("CI=%q: child failed=%v, want %v\n%s", ci, failed, ci == "true", out)
		}
	}
}

// TestNoBareToolSkips: no test of the project skips by itself when a
// program is missing (an if on exec.LookPath or os.Stat whose body calls
// Skip): that is Missing's decision, which fails in CI.
func TestNoBareToolSkips(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.IfStmt)
			if !ok || !calls(st.Init, "LookPath") && !calls(st.Cond, "LookPath") {
				return true
			}
			if calls(st.Body, "Skip") || calls(st.Body, "Skipf") || calls(st.Body, "SkipNow") {
				t.Errorf("%s: a test skips for a missing program by itself; use testenv.Tool or testenv.Missing", fset.Position(st.Pos()))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// calls reports whether n holds a call of a function or method named name.
func calls(n ast.Node, name string) bool {
	found := false
	if n == nil || reflect.ValueOf(n).IsNil() {
		return false
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			switch f := c.Fun.(type) {
			case *ast.SelectorExpr:
				found = found || f.Sel.Name == name
			case *ast.Ident:
				found = found || f.Name == name
			}
		}
		return !found
	})
	return found
}
