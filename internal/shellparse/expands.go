package shellparse

import "mvdan.cc/sh/v3/syntax"

// expands records every variable a parsed script expands, in any context
// bash expands one: words, assignments, redirection targets, here-strings,
// unquoted here-documents, [[ ]], array subscripts and arithmetic (where
// a bare name is read too: $((TOKEN)) prints an invalid value in its
// error message). ${!name} expands a variable chosen at run time.
func (a *analyser) expands(n syntax.Node) {
	add := func(name string) {
		for _, x := range a.res.Expands {
			if x == name {
				return
			}
		}
		a.res.Expands = append(a.res.Expands, name)
	}
	arith := func(x syntax.ArithmExpr) {
		if w, ok := x.(*syntax.Word); ok {
			if lit := w.Lit(); isIdentName(lit) {
				add(lit)
			}
		}
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Param != nil {
				add(n.Param.Value)
			}
			if n.Excl && n.Names == 0 && n.Index == nil {
				a.res.IndirectExpansion = true
			}
			if n.Index != nil {
				arith(n.Index)
			}
			if n.Slice != nil {
				arith(n.Slice.Offset)
				arith(n.Slice.Length)
			}
		case *syntax.ArithmExp:
			arith(n.X)
		case *syntax.ArithmCmd:
			arith(n.X)
		case *syntax.BinaryArithm:
			arith(n.X)
			arith(n.Y)
		case *syntax.UnaryArithm:
			arith(n.X)
		case *syntax.ParenArithm:
			arith(n.X)
		case *syntax.LetClause:
			for _, x := range n.Exprs {
				arith(x)
			}
		case *syntax.CStyleLoop:
			arith(n.Init)
			arith(n.Cond)
			arith(n.Post)
		case *syntax.BinaryTest:
			// [[ a -eq b ]] evaluates its operands as arithmetic
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				if w, ok := n.X.(*syntax.Word); ok {
					arith(w)
				}
				if w, ok := n.Y.(*syntax.Word); ok {
					arith(w)
				}
			}
		}
		return true
	})
}

func isIdentName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
