package shellparse

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// StatusCommand names the command whose exit status a script ends with:
// the last command of its last statement, of a pipeline the last element.
// Test clauses ([[ … ]]) are named "[[". ok is false when that command is
// not certain: the script does not parse, ends in && or || (either side
// may have set the status), `!`, a loop, a function, or a dynamic name.
func StatusCommand(src string) (name string, args []string, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) == 0 {
		return "", nil, false
	}
	st := f.Stmts[len(f.Stmts)-1]
	for {
		if st.Negated || st.Background {
			return "", nil, false
		}
		switch c := st.Cmd.(type) {
		case *syntax.BinaryCmd:
			if c.Op != syntax.Pipe && c.Op != syntax.PipeAll {
				return "", nil, false
			}
			st = c.Y
			continue
		case *syntax.TestClause:
			return "[[", nil, true
		case *syntax.CallExpr:
			var words []string
			for _, w := range c.Args {
				lit, ok := literal(w)
				if !ok {
					if len(words) == 0 {
						return "", nil, false
					}
					lit = "?"
				}
				words = append(words, lit)
			}
			if len(words) == 0 {
				return "", nil, false
			}
			return path.Base(words[0]), words[1:], true
		}
		return "", nil, false
	}
}

// literal is a word's text when it holds no expansion.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
