package shellparse

import "strings"

// setsVar checks one variable a builtin assigns or names, given as the
// word's text: NAME, NAME=value, NAME+=value, NAME[subscript]=value.
// bash evaluates an array subscript as arithmetic, expanding $(…) and
// backquotes in it, so any subscript but a number is unknown, and one
// with a substitution is also analysed as code so that what it runs is
// judged. assigns says the builtin changes the variable's value; a risky
// name (PATH, PS1, LD_PRELOAD…) then makes the whole text unknown.
func (a *analyser) setsVar(l *Leaf, text, via string, assigns bool, ctx *walkCtx) {
	n := 0
	for n < len(text) && (text[n] == '_' || text[n] >= 'a' && text[n] <= 'z' || text[n] >= 'A' && text[n] <= 'Z' || n > 0 && text[n] >= '0' && text[n] <= '9') {
		n++
	}
	name, rest := text[:n], text[n:]
	a.noteAssign(name)
	if strings.HasPrefix(rest, "[") {
		sub := rest[1:]
		if i := strings.LastIndexByte(sub, ']'); i >= 0 {
			sub = sub[:i]
		}
		if !isNumber(sub) && sub != "@" && sub != "*" {
			l.Unknown = append(l.Unknown, via+" evaluates the subscript of "+name+"[…] as code")
		}
		if strings.ContainsAny(sub, "$`") {
			a.script(l, Word{Text: ": " + sub, Raw: ": " + sub}, via+" subscript", ctx)
		}
		if i := strings.IndexByte(rest, '='); i >= 0 {
			rest = rest[i:]
		}
	}
	if assigns || strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "+=") {
		if IsRiskyEnvName(name) {
			a.unknown(ctx, via+" "+name+" changes how later commands run")
		}
	}
}

// builtinVars finds the variables assigned by printf -v, read, mapfile,
// getopts, unset and test -v, and the callbacks mapfile runs.
func (a *analyser) builtinVars(l *Leaf, ctx *walkCtx) {
	args := l.Args()
	name := l.Base()
	check := func(w Word, assigns bool) {
		if !w.Static() {
			l.Unknown = append(l.Unknown, name+" names a variable chosen at run time")
			return
		}
		a.setsVar(l, w.Text, name, assigns, ctx)
	}
	opts := func(valueLetters string) (map[byte][]Word, int) { return builtinOpts(l, name, args, valueLetters) }
	switch name {
	case "printf":
		vals, _ := opts("v")
		for _, w := range vals['v'] {
			check(w, true)
		}
	case "read":
		vals, i := opts("adinNptu")
		for _, w := range vals['a'] {
			check(w, true)
		}
		for _, w := range args[i:] {
			check(w, true)
		}
	case "mapfile", "readarray":
		vals, i := opts("dnOsuCc")
		for _, w := range vals['C'] {
			l.Unknown = append(l.Unknown, name+" -C runs a callback")
			if w.Static() {
				a.script(l, w, name+" -C", ctx)
			}
		}
		if i < len(args) {
			check(args[len(args)-1], true)
		}
	case "getopts":
		if len(args) >= 2 {
			check(args[1], true)
		}
	case "unset":
		_, i := opts("")
		for _, w := range args[i:] {
			check(w, false)
		}
	case "test", "[":
		for i, w := range args {
			if (w.Text == "-v" || w.Text == "-R") && i+1 < len(args) {
				check(args[i+1], false)
			}
		}
	case "wait":
		vals, _ := opts("p")
		for _, w := range vals['p'] {
			check(w, true)
		}
	}
}

// builtinOpts walks the leading options of the builtin name; valueLetters
// take a value; it returns the option values by letter and the index of
// the first operand.
func builtinOpts(l *Leaf, name string, args []Word, valueLetters string) (map[byte][]Word, int) {
	vals := map[byte][]Word{}
	i := 0
	for i < len(args) {
		t := args[i].Text
		if !args[i].Static() {
			if strings.HasPrefix(args[i].Raw, "-") || strings.HasPrefix(args[i].Raw, "$") || strings.HasPrefix(args[i].Raw, "\"$") {
				l.Unknown = append(l.Unknown, "dynamic option to "+name)
			}
			return vals, i
		}
		if t == "--" {
			return vals, i + 1
		}
		if len(t) < 2 || t[0] != '-' {
			return vals, i
		}
		i++
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(valueLetters, t[j]) >= 0 {
				if j+1 < len(t) {
					vals[t[j]] = append(vals[t[j]], Word{Text: t[j+1:], Raw: t[j+1:]})
				} else if i < len(args) {
					vals[t[j]] = append(vals[t[j]], args[i])
					i++
				}
				break
			}
		}
	}
	return vals, i
}
