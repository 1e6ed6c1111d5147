package policy

import (
	"strings"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// Names a reader gets split at blanks: find's or ls's output given to
// xargs without -0 (find . -name '*.go' | xargs cat, ls | xargs grep x),
// or an unquoted $(find …) (cat $(find . -name '*.txt')). xargs splits
// the names at blanks and reads quotes and backslashes, bash splits a
// substitution at blanks and expands globs in it: a hostile tree (a
// directory named "a .." holding .ssh/id_rsa) turns a name into another
// path. Such a reader is judged as find -print0 | xargs -0 is, by the
// trees below the producer's starting points, only when the disk says
// no name below them holds a blank, a quote, a backslash, a glob
// character or a control character, or begins with "-" (Facts.PlainNames).

// plainRoot reports that the names below root, a starting point of the
// producer run in cc.Cwd, stay themselves when split.
func plainRoot(root word, cc CommandContext) bool {
	if cc.Facts == nil || !root.Static() || root.Text == "" || strings.HasPrefix(root.Text, "-") ||
		strings.ContainsAny(root.Text, " \t\n'\"\\*?[") {
		return false
	}
	dir := absPath(root.Text, cc.Cwd)
	if t, st := realPath(cc, root.Text); st != PathExists {
		return false
	} else if t != "" {
		dir = t
	}
	return cc.Facts.PlainNames(dir)
}

// splitLister is the producer (find or ls) whose output xargs, without
// -0, splits into the names it appends to l, when every name it can
// print stays itself (plainFind, plainLs); nil otherwise.
func splitLister(l *shellparse.Leaf, cc CommandContext) *shellparse.Leaf {
	x := l.Wrapper
	if x == nil || !cmdbase.Unix(x.Base()).Has(cmdbase.FeedsArgs) || l.Via != shellparse.ViaXargs || !l.ArgsAppended || x.StdinFrom == nil || !plainXargs(x) {
		return nil
	}
	p := x.StdinFrom
	if len(p.Unknown) > 0 || len(p.Inner) > 0 || p.Wrapper != nil || !sameDir(p, x) {
		return nil
	}
	switch prog := cmdbase.Unix(p.Base()); {
	case prog.Has(cmdbase.Finds):
		if plainFind(p, cc) {
			return p
		}
	case prog.Has(cmdbase.ListsNames):
		for _, w := range p.Args() {
			if w.Static() && w.Text == "-1" {
				continue
			}
			if !lsOperandInside(w, cc) {
				return nil
			}
		}
		if plainRoot(word{Text: ".", Raw: "."}, cc) {
			// ls prints bare names of the directory's entries (and of
			// the entries of its subdirectories named): every name read
			// is below ".", judged as find . would be
			return &shellparse.Leaf{Words: p.Words[:1], Dir: p.Dir}
		}
	}
	return nil
}

// lsOperandInside reports an operand of ls (a name or a glob) that
// names only entries of the directory itself, none a link or an option:
// ls then prints each as it is or, for a directory, the bare names of
// its entries, all below ".".
func lsOperandInside(w word, cc CommandContext) bool {
	if w.Dynamic || strings.ContainsAny(w.Text, "/") || w.Text == "." || w.Text == ".." || strings.HasPrefix(w.Text, "-") {
		return false
	}
	names := []string{w.Text}
	if w.Glob {
		pat, ok := globPattern(w)
		if !ok || cc.Facts == nil {
			return false
		}
		m, complete := cc.Facts.Glob(cc.Cwd, pat)
		if !complete {
			return false
		}
		names = m
	}
	for _, n := range names {
		if strings.ContainsAny(n, "/") || strings.HasPrefix(n, "-") || n == "." || n == ".." {
			return false
		}
		switch t, st := realPath(cc, n); st {
		case PathMissing:
		case PathExists:
			if t != "" && t != absPath(n, cc.Cwd) {
				return false // a link: ls would list where it leads
			}
		default:
			return false
		}
	}
	return true
}

// substFinder is the find command of a word that is exactly its output,
// $(find …) or `find …`, when every name it can print stays itself; nil
// otherwise.
func substFinder(w word, cc CommandContext) *shellparse.Leaf {
	raw := strings.TrimSuffix(strings.TrimPrefix(w.Raw, `"`), `"`)
	if len(w.Subs) != 1 || w.Pipe || !(strings.HasPrefix(raw, "$(") && strings.HasSuffix(raw, ")") ||
		strings.HasPrefix(raw, "`") && strings.HasSuffix(raw, "`")) || strings.Count(raw, "$(")+strings.Count(raw, "`") > 2 {
		return nil
	}
	f := w.Subs[0]
	if !cmdbase.Unix(f.Base()).Has(cmdbase.Finds) || len(f.Unknown) > 0 || len(f.Inner) > 0 || f.Wrapper != nil || !plainFind(f, cc) {
		return nil
	}
	return f
}

// plainFind: find prints the names below its starting points with
// -print (or by default), follows no link, runs and writes nothing, and
// every starting point is plain (plainRoot).
func plainFind(f *shellparse.Leaf, cc CommandContext) bool {
	fc := cmdbase.ReadFind(f.Args())
	if !fc.PrintsPlainNames() {
		return false
	}
	for _, r := range fc.Roots {
		if !plainRoot(r, cc) {
			return false
		}
	}
	return true
}

// plainXargs: xargs appends the names it reads, with options that only
// bound or show the runs (no -0, -d, -a, -E, -I or -L: other delimiters,
// inputs, end markers, templates and line joining).
func plainXargs(x *shellparse.Leaf) bool {
	ws := x.Args()
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		if !ws[i].Static() {
			return false
		}
		if !strings.HasPrefix(t, "-") {
			return true
		}
		switch t {
		case "-r", "-t", "-x", "--no-run-if-empty", "--verbose", "--exit":
			continue
		case "-n", "-P", "-s":
			if i+1 >= len(ws) || !shellparse.Digits(ws[i+1].Text) {
				return false
			}
			i++
			continue
		}
		if len(t) > 2 && strings.ContainsRune("nPs", rune(t[1])) && t[0] == '-' && shellparse.Digits(t[2:]) {
			continue
		}
		name, v, ok := strings.Cut(t, "=")
		if ok && (name == "--max-args" || name == "--max-procs" || name == "--max-chars") && shellparse.Digits(v) {
			continue
		}
		return false
	}
	return true
}

// sameDir reports two leaves known to run in the same one directory.
func sameDir(a, b *shellparse.Leaf) bool {
	return !a.Dir.Unknown && !b.Dir.Unknown && len(a.Dir.Paths) == 1 && len(b.Dir.Paths) == 1 && a.Dir.Paths[0] == b.Dir.Paths[0]
}
