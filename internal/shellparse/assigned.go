package shellparse

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Variables the command gives a literal value once, in a statement that
// always runs before their uses (FILE=a.txt; sort "$FILE"), are
// substituted as bash would: quoted, the value as it is; unquoted, only
// a value that stays one word, unglobbed. The statement must be a
// top-level one, or the first of an && / || list of one (not in a loop,
// branch, group, subshell, function, pipeline or background job), a bare
// assignment or an export of one without redirections; every use must be a plain $NAME or
// ${NAME} in a later top-level statement or a later part of that list.
// Every other assignment of the name the analysis meets anywhere
// (declare, read, printf -v, for, ${NAME:=…}, an eval'd or inner script,
// a prefix NAME=v cmd) makes the whole text unknown once a use was
// substituted: the value could then differ.

// staticVar is a candidate: a literal assignment in a statement that
// always runs.
type staticVar struct {
	value string
	// stmt is the index of the top-level statement; later are the parts
	// of its && / || list that run after the assignment.
	stmt  int
	later []*syntax.Stmt
}

// bashSpecial are the variables bash gives a meaning of its own (their
// value changes as they are read, they are read-only, or they change
// how bash works).
var bashSpecial = map[string]bool{
	"RANDOM": true, "SRANDOM": true, "SECONDS": true, "LINENO": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true,
	"HISTCMD": true, "FUNCNAME": true, "GROUPS": true, "DIRSTACK": true, "PIPESTATUS": true, "UID": true,
	"EUID": true, "PPID": true, "OPTIND": true, "OPTARG": true, "OPTERR": true, "OLDPWD": true, "PWD": true,
	"REPLY": true, "MAPFILE": true, "COLUMNS": true, "LINES": true, "HOSTNAME": true, "HOSTTYPE": true,
	"MACHTYPE": true, "OSTYPE": true, "SHLVL": true, "TMOUT": true, "MAIL": true, "MAILCHECK": true,
	"FIGNORE": true, "TIMEFORMAT": true, "LANG": true, "LC_ALL": true, "LC_COLLATE": true, "LC_CTYPE": true,
	"LC_MESSAGES": true, "LC_NUMERIC": true, "LC_TIME": true, "TERM": true, "IGNOREEOF": true,
}

func specialVar(name string) bool {
	return bashSpecial[name] || IsRiskyEnvName(name) || strings.HasPrefix(name, "BASH") ||
		strings.HasPrefix(name, "COMP") || strings.HasPrefix(name, "READLINE") || strings.HasPrefix(name, "HIST")
}

// literalValue is the value of an assignment's word when it is literal
// text only (no expansion, escape, tilde or $'…').
func literalValue(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	var sb strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\~") {
				return "", false
			}
			sb.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			sb.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, dp := range p.Parts {
				lit, ok := dp.(*syntax.Lit)
				if !ok || strings.ContainsAny(lit.Value, "\\") {
					return "", false
				}
				sb.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// plainParam reports a $NAME or ${NAME} with nothing else.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && !p.Width && p.Index == nil && p.Slice == nil && p.Repl == nil &&
		p.Exp == nil && p.NestedParam == nil && p.Flags == nil && len(p.Modifiers) == 0
}

// staticUses finds the candidates of f and returns, for every use of
// one, the value it has there.
func staticUses(f *syntax.File) map[*syntax.ParamExp]string {
	cands := map[string]*staticVar{}
	dup := map[string]bool{}
	for i, top := range f.Stmts {
		var later []*syntax.Stmt
		s := top
		for {
			b, ok := s.Cmd.(*syntax.BinaryCmd)
			if !ok || b.Op != syntax.AndStmt && b.Op != syntax.OrStmt || s.Background || s.Negated || s.Coprocess {
				break
			}
			later = append(later, b.Y)
			s = b.X
		}
		if top.Background || top.Coprocess || s.Background || s.Negated || s.Coprocess || len(s.Redirs) > 0 {
			continue
		}
		var assigns []*syntax.Assign
		switch c := s.Cmd.(type) {
		case *syntax.CallExpr:
			if len(c.Args) > 0 {
				continue
			}
			assigns = c.Assigns
		case *syntax.DeclClause:
			// export NAME=value (declare, local and readonly may give
			// the name attributes that change the value)
			if c.Variant.Value != "export" {
				continue
			}
			assigns = c.Args
		default:
			continue
		}
		for _, as := range assigns {
			if as.Name == nil || as.Append || as.Naked || as.Index != nil || as.Array != nil {
				continue
			}
			name := as.Name.Value
			v, ok := literalValue(as.Value)
			if _, seen := cands[name]; seen || !ok || specialVar(name) {
				dup[name] = true
				continue
			}
			cands[name] = &staticVar{value: v, stmt: i, later: later}
		}
	}
	for n := range dup {
		delete(cands, n)
	}
	if len(cands) == 0 {
		return nil
	}
	uses := map[*syntax.ParamExp]string{}
	bad := map[string]bool{}
	for j, top := range f.Stmts {
		syntax.Walk(top, func(n syntax.Node) bool {
			p, ok := n.(*syntax.ParamExp)
			if !ok || p.Param == nil {
				return true
			}
			c := cands[p.Param.Value]
			if c == nil {
				return true
			}
			if !plainParam(p) || !c.runsBefore(j, p) {
				bad[p.Param.Value] = true
				return true
			}
			uses[p] = c.value
			return true
		})
	}
	for p := range uses {
		if bad[p.Param.Value] {
			delete(uses, p)
		}
	}
	return uses
}

// runsBefore reports that the assignment has run whenever the use p, in
// the top-level statement j, is expanded.
func (c *staticVar) runsBefore(j int, p *syntax.ParamExp) bool {
	if j > c.stmt {
		return true
	}
	if j < c.stmt {
		return false
	}
	// later holds the list's parts from the last to the first, none
	// overlapping: the one that may hold p is the first, from the end,
	// ending after it
	off := p.Pos().Offset()
	n := len(c.later)
	i := sort.Search(n, func(k int) bool { return c.later[n-1-k].End().Offset() > off })
	return i < n && c.later[n-1-i].Pos().Offset() <= off
}

// noteAssign counts an assignment of name met anywhere in the analysis.
func (a *analyser) noteAssign(name string) {
	if a.assigns == nil {
		a.assigns = map[string]int{}
	}
	a.assigns[name]++
}

// checkStatic makes the text unknown when a variable whose uses were
// substituted is assigned anywhere else too.
func (a *analyser) checkStatic() {
	for name := range a.substituted {
		if a.assigns[name] != 1 {
			a.res.Unknown = append(a.res.Unknown, "$"+name+" is assigned more than once")
		}
	}
}
