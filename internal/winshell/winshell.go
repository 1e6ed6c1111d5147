// Package winshell parses the plain subset of the two Windows shells,
// cmd.exe and PowerShell, into simple commands with literal words, the
// way package shellparse does for bash.
//
// The subset is what an assistant needs to read and list things: a
// command with literal arguments, pipelines, command separators and
// redirections. cmd.exe: `|`, `&`, `&&`, `||`, `<`, `>`, `>>`, `2>&1`,
// carets, double quotes, a leading `@`, built-in names glued to their
// switches (`rd/s/q`), `cmd /c …` and `if … command` (whose commands are
// parsed too). PowerShell: pipelines of cmdlets and native commands whose
// arguments are bare words, quoted strings without expansions, and
// parameters (`-Name`, `-Name:value`), separated by `;`, `&&`, `||` or
// newlines, with redirections; `powershell -Command …` and
// `-EncodedCommand …` are parsed as the inner script they run.
//
// Anything outside the subset is reported in Script.Unknown (script
// blocks, variables, subexpressions, `&`, dot-sourcing, keywords such as
// `for`, `call`, %VAR% expansions whose value is not known, here-strings,
// line continuations). The parser does not stop there: commands it can
// still see inside blocks and groups are returned too, so a caller can
// apply deny rules and dangerous-command warnings wherever a name
// appears. A caller must never allow a script with Unknown set.
//
// The package is pure: it reads nothing and runs nothing.
package winshell

import "strings"

// Options give the values the parser may substitute.
type Options struct {
	// Home is the user's profile directory: %USERPROFILE%, %HOMEDRIVE%%HOMEPATH%,
	// $HOME, $env:USERPROFILE and a leading ~ (PowerShell) name it. Empty
	// leaves them unknown.
	Home string
	// Cwd is the directory the script starts in (%CD%); empty leaves it
	// unknown.
	Cwd string
	// CwdUnknown says Cwd is only a guess: every command's directory is
	// unknown (Analyse).
	CwdUnknown bool
}

// Word is one word of a command.
type Word struct {
	// Text is what the command receives: quotes and carets removed,
	// known variables substituted. For a dynamic word it is only an
	// approximation.
	Text string
	// Raw is the word as written.
	Raw string
	// Dynamic says the value is known only at run time (a variable, a
	// subexpression, a script block).
	Dynamic bool
	// Glob says the word holds unquoted * or ?: the command, not the
	// shell, may expand it to many files.
	Glob bool
	// Quoted says the word was quoted (PowerShell: never a parameter).
	Quoted bool
	// Computed says the word is a PowerShell expression's value computed
	// at run time from literals and the output of commands the script
	// holds (judged on their own), through members that only compute:
	// (Get-Date).AddDays(-1), (1MB * 10), (… | Measure-Object).Sum. It
	// is Dynamic too: a value, never code or a parameter.
	Computed bool
}

// Redir is one redirection.
type Redir struct {
	// Op is ">", ">>", "<", "2>", "2>>", "*>", "2>&1" … as written
	// (without the target).
	Op string
	// Target is the file (empty for a duplication such as 2>&1).
	Target Word
	// Write says the redirection writes Target; Read that it reads it.
	Write, Read bool
}

// Command is one simple command.
type Command struct {
	Words  []Word
	Redirs []Redir
	// Via says how the command is reached: "" at top level, "cmd /c",
	// "powershell -Command", "if", "for", "call", "group", "script block",
	// "subexpression".
	Via string
	// PipeIn and PipeOut say the command reads from, or writes to, a pipe.
	PipeIn, PipeOut bool
	// PowerShell says the command is PowerShell's (else cmd.exe's).
	PowerShell bool
	// Line is the 1-based line of the script the command is on.
	Line int
	// Inner are the commands this one runs (cmd /c, powershell -Command,
	// if, for, call, start); they are in Script.Commands too.
	Inner []*Command
}

// Name is the command's first word (empty when there is none).
func (c *Command) Name() string {
	if len(c.Words) == 0 {
		return ""
	}
	return c.Words[0].Text
}

// Args are the words after the name.
func (c *Command) Args() []Word {
	if len(c.Words) <= 1 {
		return nil
	}
	return c.Words[1:]
}

// Dynamic reports whether any word is only known at run time.
func (c *Command) Dynamic() bool {
	for _, w := range c.Words {
		if w.Dynamic {
			return true
		}
	}
	return false
}

// Script is a parsed script.
type Script struct {
	// Commands are every simple command, in source order, including those
	// run by others (Command.Inner).
	Commands []*Command
	// Unknown lists why the script is outside the plain subset; a script
	// with anything here must be asked about.
	Unknown []string
	// Lines is the number of non-empty lines.
	Lines int
}

func (s *Script) unknown(why string) {
	for _, u := range s.Unknown {
		if u == why {
			return
		}
	}
	s.Unknown = append(s.Unknown, why)
}

// maxDepth bounds nested shells and groups.
const maxDepth = 8

// ProgramName is a program name as Windows finds it: without directory
// and .exe/.com suffix, lower-cased.
func ProgramName(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' || s[i] == '\\' {
			s = s[i+1:]
			break
		}
	}
	s = strings.ToLower(s)
	if len(s) > 4 && (strings.HasSuffix(s, ".exe") || strings.HasSuffix(s, ".com")) {
		return s[:len(s)-4]
	}
	return s
}

// BaseName is the command name as the knowledge base looks it up: no
// directory, no .exe or .com suffix, lower case.
func BaseName(s string) string { return ProgramName(s) }
