package cmdbase

import "strings"

// Shells' builtins and helpers that only print or test: the shell family
// of the command base (cmdbase/unix_languages.go). Builtins that change
// the shell's state (alias NAME=…, shopt -s, ulimit N, hash NAME) ask.
var _ = registerSafe(Languages, safeLanguages)

// safeLanguages is built on first use (safeTables).
var safeLanguages = func() map[string]safeCmd {
	return map[string]safeCmd{
		// a shell's -n reads the script and runs none of it (not even
		// BASH_ENV): a syntax check, whose errors quote the script's lines
		"bash": shellSyntaxCheck, "sh": shellSyntaxCheck, "dash": shellSyntaxCheck,
		":": plain, "true": plain, "false": plain, "echo": plain, "pwd": plain, "sleep": plain,
		"cd": plain, "pushd": plain, "popd": plain, "dirs": plain, "type": plain, "[[": plain,
		"test":    {dynOK: true, check: testCheck},
		"[":       {dynOK: true, check: testCheck},
		"printf":  {dynOK: true, check: printfCheck},
		"command": {check: commandCheck},
		// bc computes; its file operands are programs read
		"bc": {reads: true, dynOK: true},
		// shell builtins that print state
		"jobs":    {check: func(ws []word) string { return ForbidShort("x", "", ws) }},
		"alias":   {check: aliasCheck},
		"shopt":   {check: shoptCheck},
		"history": {check: historyCheck},
		// fc -l lists the history (fc without -l re-runs it: the analyser
		// marks that unknown); only the listing flags are known
		"fc": {check: fcCheck},
		// read VAR… reads a line of standard input (the names are checked by
		// the analyser)
		"read":   {check: func(ws []word) string { return ForbidShort("e", "adinNptu", ws) }},
		"ulimit": {check: ulimitCheck},
		"umask":  {check: umaskCheck},
		// bash's hash: without arguments, -l or -t NAME it prints the table
		// of remembered commands (hash NAME and -p PATH change it)
		"hash": {args: &argSpec{flags: "lt", operands: opNames,
			extra: hashExtra}},
		// bash's help prints the documentation of builtins
		"help":   {args: &argSpec{flags: "dms", operands: opNames, pure: true}},
		"getopt": {args: &argSpec{flags: "aqQTuhV", values: "olns", pure: true, longs: ltLongs("alternative", "longoptions=", "name=", "options=", "quiet", "quiet-output", "shell=", "test", "unquoted")}},
	}
}

func ulimitCheck(ws []word) string {
	if len(Positionals(ws, "")) > 0 {
		return "ulimit with a value changes limits"
	}
	return ""
}

func umaskCheck(ws []word) string {
	if len(Positionals(ws, "")) > 0 {
		return "umask with a value changes the mask"
	}
	return ""
}

func hashExtra(ws []word, _ string, ops []word) string {
	if len(ops) > 0 && !ShortFlags(ws, "")['t'] {
		return "hash NAME remembers where a command is"
	}
	return ""
}

// testCheck: test -v NAME[SUBSCRIPT] evaluates the subscript.
func testCheck(ws []word) string {
	for i, w := range ws {
		if (w.Text == "-v" || w.Text == "-R") && i+1 < len(ws) && (!ws[i+1].Static() || strings.Contains(ws[i+1].Text, "[")) {
			return "test -v with a subscript evaluates it as code"
		}
	}
	return ""
}

// printfCheck: a dynamic format may be -v, and printf -v assigns.
func printfCheck(ws []word) string {
	for i, w := range ws {
		if !w.Static() && i == 0 {
			return "printf with a dynamic first argument"
		}
		if w.Text == "-v" {
			if i+1 >= len(ws) || !ws[i+1].Static() || !IsIdent(ws[i+1].Text) {
				return "printf -v with a subscript or dynamic name"
			}
		}
		if w.Text == "--" || !strings.HasPrefix(w.Text, "-") {
			break
		}
	}
	return ""
}

// commandCheck: command -v and -V print; otherwise command runs one.
func commandCheck(ws []word) string {
	if AnyWord(ws, "-v", "-V") {
		return ""
	}
	return "command runs a command"
}

func aliasCheck(ws []word) string {
	for _, w := range ws {
		if strings.Contains(w.Text, "=") || !w.Static() {
			return "alias defines an alias"
		}
	}
	return ""
}

func shoptCheck(ws []word) string {
	f := ShortFlags(ws, "")
	if f['s'] || f['u'] || f['o'] && !f['p'] && len(Positionals(ws, "")) > 0 && (f['s'] || f['u']) {
		return "shopt -s/-u changes how later commands run"
	}
	return ""
}

func historyCheck(ws []word) string {
	if len(ws) == 0 || len(ws) == 1 && digits(ws[0].Text) {
		return ""
	}
	return "history with options changes the history or its file"
}

func fcCheck(ws []word) string {
	for _, w := range ws {
		if strings.HasPrefix(w.Text, "-") && !digits(w.Text[1:]) && strings.Trim(w.Text[1:], "lnr") != "" {
			return "fc " + w.Raw + " is not a listing option"
		}
	}
	if !ShortFlags(ws, "")['l'] {
		return "fc without -l re-runs commands from the history"
	}
	return ""
}

// shellSyntaxCheck is a shell given -n and at most one script file.
var shellSyntaxCheck = safeCmd{args: &argSpec{flags: "n", reads: true, maxOps: 1,
	extra: func(ws []word, _ string, _ []word) string {
		if !ShortFlags(ws, "")['n'] {
			return "a shell without -n runs the script"
		}
		return ""
	}}}
