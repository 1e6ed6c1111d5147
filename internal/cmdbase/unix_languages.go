package cmdbase

// Shells, interpreters, REPLs and the shell's own commands that run other
// commands.
var _ = registerUnix(Languages, func() []Prog {
	return []Prog{
		// shells: their -c scripts and script files are parsed as bash
		{Name: "bash", Is: Shell | ScriptFile | Alarm | Bourne, Version: []string{"--version", "--help"}},
		{Name: "sh", Is: Shell | ScriptFile | Alarm | Bourne},
		{Name: "zsh", Is: Shell | ScriptFile | Alarm, Version: []string{"--version", "--help"}},
		{Name: "dash", Is: Shell | ScriptFile | Bourne},
		{Name: "ksh", Aliases: []string{"ksh93"}, Is: Shell | ScriptFile},
		{Name: "mksh", Is: Shell | ScriptFile},
		{Name: "ash", Is: Shell | ScriptFile},
		{Name: "yash", Is: Shell | ScriptFile},
		{Name: "posh", Is: Shell | ScriptFile},
		{Name: "fish", Is: Shell | ScriptFile},
		{Name: "rbash", Is: Shell | ScriptFile},

		// interpreters: network data piped into them is dangerous; no
		// narrow rule exists for code given as text
		{Name: "python", Aliases: []string{"python2", "python3"}, Is: Interpreter | ScriptFile | Prefixed | Alarm, Lang: Python, Module: "-m",
			Version: []string{"--version", "-V", "--help", "-h"}},
		{Name: "ipython", Is: Interpreter, Lang: Python},
		{Name: "bpython", Is: Interpreter, Lang: Python},
		{Name: "ptpython", Is: Interpreter, Lang: Python},
		{Name: "pypy", Aliases: []string{"pypy3"}, Is: Interpreter | ScriptFile, Lang: Python},
		{Name: "node", Aliases: []string{"nodejs"}, Is: Interpreter | ScriptFile | Alarm, Lang: JavaScript,
			Version: []string{"--version", "-v", "--help", "-h"}},
		{Name: "ts-node", Is: Interpreter | ScriptFile, Lang: JavaScript},
		{Name: "deno", Is: Interpreter | Subcommands, Lang: JavaScript, Version: []string{"--version"},
			Subs: []ProgSub{{Name: "eval", Runs: true}, {Name: "repl", Runs: true}}},
		{Name: "ruby", Is: Interpreter | ScriptFile | Alarm, Lang: Ruby, Version: []string{"--version", "-v", "--help", "-h"}},
		{Name: "irb", Is: Interpreter | NoRule, Lang: Ruby},
		{Name: "pry", Is: Interpreter, Lang: Ruby},
		{Name: "perl", Is: Interpreter | ScriptFile | Alarm, Lang: OtherLang, Version: []string{"--version", "-v", "-h"}, Writes: perlWrites},
		{Name: "php", Is: Interpreter | ScriptFile, Lang: OtherLang, Version: []string{"--version", "-v"}},
		{Name: "lua", Is: Interpreter | ScriptFile, Lang: OtherLang, Version: []string{"-v"}},
		{Name: "luajit", Is: Interpreter | ScriptFile, Lang: OtherLang},
		{Name: "tclsh", Is: Interpreter},
		{Name: "Rscript", Is: Interpreter | ScriptFile},
		{Name: "R", Lang: OtherLang},
		{Name: "julia", Lang: OtherLang},
		{Name: "ghci", Is: Interpreter | NoRule, Lang: OtherLang},
		{Name: "jshell", Is: Interpreter | NoRule},
		{Name: "osascript", Is: Interpreter},
		{Name: "pwsh", Aliases: []string{"powershell"}, Is: Interpreter | NoRule},
		{Name: "scala", Lang: OtherLang}, {Name: "clojure", Lang: OtherLang}, {Name: "guile", Lang: OtherLang},
		{Name: "racket", Lang: OtherLang}, {Name: "ocaml", Lang: OtherLang}, {Name: "erl", Lang: OtherLang},
		{Name: "iex", Lang: OtherLang},

		// the shell's own commands that run code or other commands
		{Name: "eval", Is: Interpreter | NoRule | Alarm},
		{Name: "source", Aliases: []string{"."}, Is: Interpreter | NoRule},
		{Name: "exec", Is: Wrapper | Harmless | Alarm},
		{Name: "command", Is: Wrapper | Harmless},
		{Name: "builtin", Is: Wrapper | Harmless},
		{Name: "time", Is: Wrapper | Harmless, Values: "fo", Outputs: []Output{{Short: 'o', Long: "output"}}},
		{Name: "trap", Is: NoRule},
		{Name: "alias", Is: NoRule},

		// commands whose outcome does not depend on the directory they run in
		{Name: "cd", Is: NoDir}, {Name: "pushd", Is: NoDir}, {Name: "popd", Is: NoDir}, {Name: "dirs", Is: NoDir},
		{Name: "pwd", Is: NoDir}, {Name: "echo", Is: NoDir | Echoes}, {Name: "printf", Is: NoDir | Echoes}, {Name: "true", Is: NoDir},
		{Name: "false", Is: NoDir}, {Name: ":", Is: NoDir}, {Name: "test", Is: NoDir}, {Name: "[", Is: NoDir},
		{Name: "[[", Is: NoDir}, {Name: "sleep", Is: NoDir},

		// the shell's own commands that show its variables or history
		{Name: "printenv", Is: ShowsVars, VarNames: true},
		{Name: "export", Is: ShowsVars}, {Name: "declare", Is: ShowsVars | NameRefs}, {Name: "typeset", Is: ShowsVars | NameRefs},
		{Name: "local", Is: ShowsVars | NameRefs}, {Name: "compgen", Is: ShowsVars}, {Name: "read", Is: ReadsLine},
		{Name: "set", Is: ShowsVars | SetsOptions},
		{Name: "history", Is: History}, {Name: "fc", Is: History},
	}
})

// InlineCode is an option whose value is code an interpreter runs: the
// letter (-c CODE, -cCODE, in a cluster) and the long name (--eval=CODE),
// "" for none.
type InlineCode struct {
	Letter byte
	Long   string
}

// InlineCodeOptions are the options whose value is code an interpreter
// of lang runs: python -c, node -e and -p (--eval, --print), ruby -e,
// perl -e and -E, php -r, lua -e.
func InlineCodeOptions(lang Lang) []InlineCode {
	switch lang {
	case Python:
		return []InlineCode{{Letter: 'c'}}
	case JavaScript:
		return []InlineCode{{Letter: 'e', Long: "eval"}, {Letter: 'p', Long: "print"}}
	case Ruby:
		return []InlineCode{{Letter: 'e'}}
	case OtherLang:
		return []InlineCode{{Letter: 'e'}, {Letter: 'E'}, {Letter: 'r'}}
	}
	return nil
}
