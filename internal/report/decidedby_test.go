package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDecidedByDocumented: the decidedBy values docs/output-format.md lists
// are exactly those nb can emit — the policy.Decider constants — and every
// string nb's code spells as a decider (a DecidedBy assignment or field, a
// Decider conversion, an allow rule's source) is one of them.
func TestDecidedByDocumented(t *testing.T) {
	constants := map[string]string{} // value -> constant name
	var spelled []string             // literals used as deciders, with where
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		lit := func(e ast.Expr) {
			if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
				v, _ := strconv.Unquote(b.Value)
				if v == "" {
					return // the zero value: nobody decided yet
				}
				spelled = append(spelled, v+"\t"+fset.Position(b.Pos()).String())
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "Decider" {
					for i, name := range n.Names {
						if b, ok := n.Values[i].(*ast.BasicLit); ok {
							v, _ := strconv.Unquote(b.Value)
							constants[v] = name.Name
						}
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "DecidedBy" && i < len(n.Rhs) {
						lit(n.Rhs[i])
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == "DecidedBy" {
					lit(n.Value)
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "Decider" && len(n.Args) == 1 {
					lit(n.Args[0])
				}
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "ruleEntry" {
					for _, e := range n.Elts {
						lit(e)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(constants) < 10 {
		t.Fatalf("found only %d policy.Decider constants: %v (did the scan break?)", len(constants), constants)
	}
	for _, s := range spelled {
		v, where, _ := strings.Cut(s, "\t")
		if _, ok := constants[v]; !ok {
			t.Errorf("%s: decider %q is no policy.Decider constant", where, v)
		}
	}

	documented := documentedDeciders(t)
	for v, name := range constants {
		if !slices.Contains(documented, v) {
			t.Errorf("policy.%s (%q) is not documented in docs/output-format.md's decidedBy table", name, v)
		}
	}
	for _, v := range documented {
		if _, ok := constants[v]; !ok {
			t.Errorf("docs/output-format.md documents decidedBy %q, which nb never emits", v)
		}
	}
}

// documentedDeciders are the values of the decidedBy table in
// docs/output-format.md.
func documentedDeciders(t *testing.T) []string {
	data, err := os.ReadFile("../../docs/output-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n### decidedBy\n")
	if !ok {
		t.Fatal("docs/output-format.md has no ### decidedBy section")
	}
	var values []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "#") {
			break
		}
		if v, ok := strings.CutPrefix(line, "| `"); ok {
			v, _, _ = strings.Cut(v, "`")
			values = append(values, v)
		}
	}
	if len(values) == 0 {
		t.Fatal("the decidedBy section has no table rows")
	}
	return values
}
