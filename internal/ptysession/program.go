package ptysession

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shells are the programs whose input is a shell command line.
var shells = map[string]bool{
	"bash": true, "sh": true, "zsh": true, "dash": true, "fish": true,
	"ksh": true, "mksh": true, "ash": true,
	"cmd": true, "powershell": true, "pwsh": true,
}

// progName is a program's name without directory and, for Windows
// programs, without .exe and case (C:\Windows\System32\cmd.exe → cmd).
func progName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	if strings.HasSuffix(strings.ToLower(p), ".exe") {
		p = strings.ToLower(p[:len(p)-4])
	}
	switch l := strings.ToLower(p); l {
	case "cmd", "powershell", "pwsh":
		return l
	}
	return p
}

// windowsShellOpt reports whether a is an option that leaves cmd.exe or
// PowerShell interactive (not /c, /k, -Command, -File, -EncodedCommand…).
func windowsShellOpt(program, a string) bool {
	l := strings.ToLower(a)
	if program == "cmd" {
		return strings.HasPrefix(l, "/") && l != "/c" && l != "/k" && l != "/r" && !strings.HasPrefix(l, "/v:on")
	}
	name := strings.TrimLeft(l, "-/")
	if !strings.HasPrefix(l, "-") || name == "" {
		return false
	}
	for _, p := range []string{"command", "file", "encodedcommand", "executionpolicy", "settingsfile", "workingdirectory", "configurationname", "custompipename", "inputformat", "outputformat", "windowstyle", "version", "psconsolefile"} {
		if strings.HasPrefix(p, name) {
			return false
		}
	}
	return true
}

// ProgramOf names the program a session command starts and whether it is
// an interactive shell, for deciding input sent with the command before
// the session exists.
func ProgramOf(command string) (program string, shell bool) { return programOf(command) }

// IsShellName reports whether name (a command name or path) is a shell.
func IsShellName(name string) bool { return shells[progName(name)] }

// programOf names the program a session command runs and whether it is an
// interactive shell reading command lines from the terminal. Only a single
// simple command of literal words counts as a shell: the shell name, after
// any `env`/`exec` wrappers and variable assignments, followed by options
// only (`bash`, `bash --norc -i`, `env FOO=1 zsh`). A shell given a script
// or -c is not one: its input goes to whatever the script runs.
func programOf(command string) (program string, shell bool) {
	words, ok := literalWords(command)
	if !ok || len(words) == 0 {
		if f := strings.Fields(command); len(f) > 0 {
			return path.Base(strings.TrimRight(f[0], ";&|()")), false
		}
		return "", false
	}
	i := 0
	for i < len(words) {
		w := words[i]
		switch {
		case isAssignment(w):
			i++
		case w == "exec" || w == "command":
			i++
		case w == "env":
			i++
			for i < len(words) && (strings.HasPrefix(words[i], "-") || isAssignment(words[i])) {
				if words[i] == "-u" || words[i] == "-C" || words[i] == "-S" {
					// Options with an argument; -S splits a string: give up.
					if words[i] == "-S" {
						return "env", false
					}
					i++
				}
				i++
			}
		default:
			goto found
		}
	}
	return "", false
found:
	program = progName(words[i])
	if !shells[program] {
		return path.Base(words[i]), false
	}
	if program == "cmd" || program == "powershell" || program == "pwsh" {
		for _, a := range words[i+1:] {
			if !windowsShellOpt(program, a) {
				return program, false
			}
		}
		return program, true
	}
	for _, a := range words[i+1:] {
		if !strings.HasPrefix(a, "-") || a == "-c" || a == "-" || a == "--" || strings.HasPrefix(a, "--init-file") || strings.HasPrefix(a, "--rcfile") {
			return program, false
		}
		if len(a) > 1 && a[1] != '-' && strings.ContainsRune(a[1:], 'c') {
			return program, false
		}
	}
	return program, true
}

func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j, r := range w[:i] {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || j > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// literalWords parses command as bash and returns the words of its single
// simple command when every word is a literal (quotes allowed, no
// expansions), with leading assignments as NAME=VALUE words.
func literalWords(command string) ([]string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
		return nil, false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return nil, false
	}
	var words []string
	for _, a := range call.Assigns {
		if a.Name == nil || a.Append || a.Naked || a.Array != nil || a.Index != nil {
			return nil, false
		}
		v := ""
		if a.Value != nil {
			lit, ok := literal(a.Value)
			if !ok {
				return nil, false
			}
			v = lit
		}
		words = append(words, a.Name.Value+"="+v)
	}
	for _, w := range call.Args {
		lit, ok := literal(w)
		if !ok {
			return nil, false
		}
		words = append(words, lit)
	}
	return words, true
}

// literal unquotes w when it has no expansions.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[{~\\") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(lit.Value, "\\") {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
