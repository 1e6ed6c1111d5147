// Package cmdbase is nb's knowledge of commands as data, one file per
// family, read by small interpreters.
//
// Programs as a POSIX shell runs them (unix.go; unix_*.go by family): what
// kind of program each is (a shell, an interpreter, a wrapper, a relay of
// terminal input, a network tool, one that can send any data anywhere, one
// with subcommands), why it is dangerous whatever its arguments, its
// dangerous forms and subcommands, the global options that take a value,
// and the options that only print its version. Unix finds an entry by
// name; Prog's methods read it against a command's words. Beside each
// family is its safe list (safe_*.go): the read-only argument grammar of
// each command as the bash analysis parsed it, which Safe returns.
//
// Windows commands (cmd_builtins.go, win_programs.go, ps_read.go,
// ps_write.go, ps_system.go): cmd.exe's built-ins, Windows programs and
// PowerShell cmdlets, each with what it does (reads, writes, changes the
// system, runs code, talks to the network, is dangerous), the options and
// subcommands that change that, the options that take a value, and the
// forms that read a whole tree. Judge is the interpreter. Programs that
// behave on Windows as they do elsewhere (git, go, docker…) are listed as
// Portable: their arguments are judged by the bash analysis.
//
// Every entry has examples beside it (unix_examples_test.go,
// safe_*_test.go, decided by the real engine; cmdbase_test.go). The
// package is pure: it looks nothing up on the system.
package cmdbase

import (
	"sort"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/winshell"
)

// Effect is what a command does.
type Effect int

const (
	// Unknown: not in the base; asked.
	Unknown Effect = iota
	// Reads files or system state and prints them; changes nothing.
	Reads
	// Writes creates, changes, moves or deletes files (warned, seed 000).
	Writes
	// Changes changes the system, processes, services or settings.
	Changes
	// Runs runs other programs or code.
	Runs
	// Sends talks to the network.
	Sends
	// Dangerous is warned with the default answer No.
	Dangerous
)

func (e Effect) String() string {
	return [...]string{"unknown", "reads", "writes", "changes", "runs", "sends", "dangerous"}[e]
}

// worse orders effects by how much they need a human.
func worse(a, b Effect) Effect {
	rank := [...]int{Unknown: 2, Reads: 0, Writes: 4, Changes: 2, Runs: 3, Sends: 3, Dangerous: 5}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// Shells says where a name is known.
type Shells uint8

const (
	Cmd Shells = 1 << iota
	PowerShell
	// Both: a program on PATH, the same from either shell.
	Both = Cmd | PowerShell
)

// Category is how the display line shows a single command.
type Category string

const (
	CatNone   Category = ""
	CatRead   Category = "read"
	CatDelete Category = "delete"
	CatCopy   Category = "copy"
	CatMove   Category = "move"
	CatMkdir  Category = "mkdir"
	CatWrite  Category = "write"
	CatAppend Category = "append"
)

// Spec is what the base knows about one command.
type Spec struct {
	// Name is the canonical name (a cmdlet's Verb-Noun, a program's name
	// without .exe).
	Name string
	// Aliases are other names for it in the shells of In.
	Aliases []string
	In      Shells
	// Does is the effect with no option or subcommand that changes it.
	Does Effect
	// Cat is the display category of a single such command.
	Cat Category
	// Args says what its operands are: files (the default; their paths
	// are judged by the secret-path rules), text, or a pattern and then
	// files.
	Args Role
	// Values are the options that take the next word as a value
	// (PowerShell parameters without the dash; cmd.exe switches with
	// the slash).
	Values []string
	// Opts are options that change the effect.
	Opts []Opt
	// Words are operands that change the effect, matched whole and
	// without case (wmic … delete, netsh … show): the worst one wins;
	// a Reads word only lowers Does when no other word matched.
	Words []Opt
	// Mentions are texts that change the effect wherever an argument
	// holds them, without case (Win32_Product in a class or a query).
	Mentions []Opt
	// Subs are subcommands (the first operand: reg query, sc stop);
	// an unlisted subcommand is Unknown.
	Subs []Sub
	// NoArgs is the effect when the command has no arguments at all
	// (set prints the environment, date waits for a new date); 0 means Does.
	NoArgs Effect
	// Lists says it lists files (its output, piped, names files).
	Lists bool
	// PipedPaths says it reads the files its pipeline input names
	// (Get-ChildItem -Recurse | Select-String reads the whole tree).
	PipedPaths bool
	// ShowsEnv says it prints environment or session variables, which may
	// hold secrets (asked).
	ShowsEnv bool
	// Assigns says an operand NAME=VALUE (or a switch) makes it change
	// what it names; without one it prints (set AWS, assoc .txt).
	Assigns bool
	// ChangesPiped says it changes the items its pipeline names
	// (Get-ChildItem C:\Windows | Remove-Item).
	ChangesPiped bool
	// Remote says it can ask another computer (-ComputerName, -CimSession,
	// -Session): those parameters make it talk to the network.
	Remote bool
	// RunsURL says it runs the code a URL or another computer's path
	// names (mshta http://…, regsvr32 /i:http://…): dangerous.
	RunsURL bool
	// Wraps says it runs the commands it is given, which the parsers
	// make leaves of their own: JudgedInner (cmd /c, powershell
	// -Command, if) does nothing else, StartsInner (start) starts them
	// as a new program.
	Wraps Wrap
	// Linux says it runs a Linux command (wsl), judged as bash would
	// judge it.
	Linux bool
	// Code says it runs code it is given as text the parser cannot see
	// (Invoke-Expression $s): after a download anywhere in the script it
	// is dangerous.
	Code bool
	// Shell says it runs the commands its input holds (cmd, powershell):
	// code from the network piped into it is dangerous.
	Shell bool
	// PassThrough says its output objects are its input's (Sort-Object,
	// Where-Object), unless one of Reshapes is given (Select-Object
	// -ExpandProperty makes new objects of a property).
	PassThrough bool
	Reshapes    []string
	// Echoes says it prints its arguments: alone with one redirection
	// that writes, it is shown as a write of that file (echo x > f).
	Echoes bool
	// TextOut says its output is text (lines of a file, strings, a
	// table), never objects naming files.
	TextOut bool
	// Saves says it saves what it fetches from the network to a file:
	// always (an empty entry) or with one of the options listed
	// (Invoke-WebRequest -OutFile, certutil -urlcache).
	Saves []string
	Why   string
	// Examples are commands of it with what nb decides for them, run as
	// tests under each shell of In (examples.go).
	Examples Examples
}

// Wrap is how a command runs the commands it is given.
type Wrap uint8

const (
	NoWrap Wrap = iota
	// JudgedInner: only its commands count.
	JudgedInner
	// StartsInner: it starts them as a program of their own.
	StartsInner
)

// Role is what a command's operands are.
type Role int

const (
	// FileArgs: operands name files (or directories).
	FileArgs Role = iota
	// TextArgs: operands are names, properties or text, never read as
	// files (Sort-Object Name, Get-Process node, echo).
	TextArgs
	// PatternArgs: the first operand is a pattern, the rest files
	// (findstr, Select-String), unless an option gave the pattern.
	PatternArgs
)

// Opt is an option that changes the effect.
type Opt struct {
	// Name is the option: "-Recurse" (PowerShell, any unique prefix of it
	// matches), "/s" (cmd.exe; "/a" also matches "/a:h").
	Name string
	Does Effect
	// Recurse says the command reads (or acts on) whole trees.
	Recurse bool
	// Value is the option's value that makes it apply ("RunAs" for
	// Start-Process -Verb); empty: any.
	Value string
	// ValueHas is text the option's value must hold for it to apply
	// ("://" for wmic /format: a stylesheet from the network).
	ValueHas string
	// Named says it reads the files named in the file (or the input) the
	// option gives (findstr /f:LIST): which files is not known.
	Named bool
	Why   string
}

// Sub is a subcommand.
type Sub struct {
	Name string
	Does Effect
	Opts []Opt
	Why  string
	// MaxOps, when set, is the most operands it takes to only do Does;
	// with more it does More (net user NAME PASSWORD sets a password).
	MaxOps  int
	More    Effect
	MoreWhy string
	// Other, when set, is the effect of an option Opts does not list
	// (net user NAME /passwordreq:no changes the account).
	Other    Effect
	OtherWhy string
}

// Arg is one word after the command name.
type Arg struct {
	Text string
	// Quoted says the word was quoted (a PowerShell parameter never is).
	Quoted bool
}

// Judgement is the interpreter's verdict for one command.
type Judgement struct {
	// Spec is the entry found (nil: unknown command).
	Spec *Spec
	// Name is the canonical name (or the name as written, lower-cased).
	Name string
	Does Effect
	// Why explains a Dangerous, Changes or Runs effect.
	Why string
	// Operands are the arguments that are neither options nor their
	// values: the files and directories it reads or changes.
	Operands []string
	// Values are the option values.
	Values []string
	// Patterns are the values of -Filter and -Include: the names of the
	// files a lister names (and a reader down its pipeline reads).
	Patterns []string
	// Files are the operands and option values that name files the
	// command reads or changes (what the secret-path rules judge).
	Files []string
	// Recurse says it reads whole trees: Operands, or the current
	// directory when there are none.
	Recurse bool
	// ShowsEnv: it prints environment or session variables.
	ShowsEnv bool
	// Named: it reads files whose names come from a list or its input.
	Named bool
	// Portable: the program behaves as on Unix; judge it as bash would.
	Portable bool
	Cat      Category
}

// builtins are the names each shell knows itself (cmd.exe built-ins;
// cmdlets, functions and aliases), which win over programs on PATH;
// programs are the programs on PATH, the same from either shell.
var (
	builtins = map[Shells]map[string]*Spec{Cmd: {}, PowerShell: {}}
	programs = map[string]*Spec{}
)

// remoteParams are the parameters of a Remote cmdlet that name other
// computers.
var remoteParams = []string{"-ComputerName", "-Cn", "-CimSession", "-Session", "-PSSession"}

// winLists are the base's lists as each file registers its own
// (register); winTables fills builtins and programs from them on first
// use, so a run that judges no Windows command never builds them.
var winLists []func() []Spec

func register(list func() []Spec) bool {
	winLists = append(winLists, list)
	return true
}

var winTables = sync.OnceFunc(func() {
	for _, list := range winLists {
		addSpecs(list())
	}
})

func addSpecs(specs []Spec) {
	for i := range specs {
		s := &specs[i]
		if s.Remote {
			s.Values = append(s.Values, remoteParams...)
			for _, p := range remoteParams {
				s.Opts = append(s.Opts, Opt{Name: p, Does: Sends, Why: s.Name + " " + p + " asks another computer"})
			}
		}
		for _, n := range append([]string{s.Name}, s.Aliases...) {
			k := strings.ToLower(n)
			if s.In == Both {
				if _, dup := programs[k]; dup {
					panic("cmdbase: program " + n + " listed twice")
				}
				programs[k] = s
				continue
			}
			for _, sh := range []Shells{Cmd, PowerShell} {
				if s.In&sh == 0 {
					continue
				}
				if _, dup := builtins[sh][k]; dup {
					panic("cmdbase: " + n + " listed twice")
				}
				builtins[sh][k] = s
			}
		}
	}
}

// Lookup finds the entry for a command name in a shell, comparing names
// without case. A name with a directory or an .exe/.com suffix names a
// program file, never a built-in or an alias. Cmdlets may be
// module-qualified (Microsoft.PowerShell.Management\Get-ChildItem).
func Lookup(sh Shells, name string) *Spec {
	n := strings.ToLower(name)
	if sh == PowerShell {
		if _, c, ok := SplitModule(n); ok {
			n = c
		}
		if strings.HasPrefix(n, "$") {
			n, _, _ = strings.Cut(n, ".") // $PSVersionTable.PSVersion
		}
	}
	winTables()
	if s := builtins[sh][n]; s != nil {
		return s
	}
	return programs[winshell.ProgramName(n)]
}

// shippedModules are the modules Windows ships (besides Microsoft.*),
// whose cmdlets are the ones the base describes.
var shippedModules = map[string]bool{"storage": true, "netadapter": true, "nettcpip": true, "netsecurity": true,
	"defender": true, "scheduledtasks": true, "dnsclient": true, "smbshare": true, "cimcmdlets": true, "pki": true,
	"dism": true, "international": true, "printmanagement": true, "bitlocker": true, "appx": true,
	"netconnection": true, "psreadline": true, "hyper-v": true, "servermanager": true, "configci": true}

// SplitModule splits a module-qualified cmdlet name
// (Microsoft.PowerShell.Management\Remove-Item, Storage\Format-Volume):
// one backslash between a module's name and a Verb-Noun.
func SplitModule(name string) (module, cmdlet string, ok bool) {
	module, cmdlet, ok = strings.Cut(name, `\`)
	if !ok || module == "" || module[0] == '.' || !strings.Contains(cmdlet, "-") || strings.ContainsAny(cmdlet, `\/.`) {
		return "", "", false
	}
	for _, r := range module {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return "", "", false
		}
	}
	return module, cmdlet, true
}

// ShippedModule says a module is one Windows ships.
func ShippedModule(module string) bool {
	m := strings.ToLower(module)
	return strings.HasPrefix(m, "microsoft.") || shippedModules[m]
}

// isOpt says whether an argument is an option in the shell. A program
// reads its own command line: quotes do not keep a word from being
// one of its switches.
func isOpt(sh Shells, a Arg, program bool) bool {
	if a.Quoted && !program || len(a.Text) < 2 {
		return false
	}
	switch sh {
	case PowerShell:
		return a.Text[0] == '-' && !isDigit(a.Text[1])
	default:
		return a.Text[0] == '/' || a.Text[0] == '-' && !isDigit(a.Text[1])
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// optMatches says whether the argument a names option name.
func optMatches(sh Shells, a, name string) bool {
	a, name = strings.ToLower(a), strings.ToLower(name)
	if sh == PowerShell && strings.HasPrefix(name, "-") {
		// PowerShell accepts any unambiguous prefix; the base assumes the
		// worst: a prefix of an option may be that option
		return len(a) >= 2 && strings.HasPrefix(name, a)
	}
	if a == name {
		return true
	}
	// /a:h, /o:-d
	if i := strings.IndexByte(a, ':'); i > 0 && a[:i] == name {
		return true
	}
	return false
}

// Judge reads the base's entry for a command (name and arguments) in a
// shell: its subcommand, then each argument (an operand, an option and
// its value), then what the whole line comes to.
func Judge(sh Shells, name string, args []Arg) Judgement {
	s := Lookup(sh, name)
	if s == nil {
		j := Judgement{Name: winshell.ProgramName(name), Does: Unknown, Portable: portable[winshell.ProgramName(name)]}
		j.Operands = textOf(args)
		j.Files = j.Operands
		return j
	}
	g := &judging{s: s, sh: sh, opts: s.Opts, wordEffect: Unknown, raised: Unknown,
		j: Judgement{Spec: s, Name: s.Name, Does: s.Does, Why: s.Why, Cat: s.Cat, ShowsEnv: s.ShowsEnv}}
	// a program reads its own switches (/grant, -urlcache), quoted or
	// not, whichever shell started it: PowerShell passes them on as written
	g.program = s.In == Both
	if g.program {
		g.sh = Cmd
	}
	if len(args) == 0 && s.NoArgs != Unknown {
		g.j.Does = s.NoArgs
		if g.j.Does != s.Does {
			g.j.Cat = CatNone
		}
	}
	args = g.subcommand(args)
	for i := 0; i < len(args); i++ {
		if !isOpt(g.sh, args[i], g.program) {
			g.operand(args[i].Text)
			continue
		}
		if g.option(args, i) {
			i++ // its value
		}
	}
	g.settle(args)
	return g.j
}

// judging is Judge's state while it reads a command's arguments.
type judging struct {
	j       Judgement
	s       *Spec
	sub     *Sub
	sh      Shells
	program bool
	opts    []Opt
	// wordEffect is the worst effect of the operand words (Words)
	wordEffect Effect
	// lowered: an option makes it only read; raised: the worst effect
	// an option gives it (hasRaised: there is one), and why
	lowered, hasRaised bool
	raised             Effect
	raisedWhy          string
	// patternGiven: the pattern came in an option, so no operand is one
	patternGiven bool
}

// subcommand finds the subcommand of a program that has them (the first
// argument that is no option) and returns the arguments without it.
func (g *judging) subcommand(args []Arg) []Arg {
	s := g.s
	if len(s.Subs) == 0 {
		return args
	}
	for i, a := range args {
		if isOpt(g.sh, a, g.program) {
			continue
		}
		for k := range s.Subs {
			if strings.EqualFold(s.Subs[k].Name, a.Text) {
				g.sub = &s.Subs[k]
			}
		}
		args = append(append([]Arg{}, args[:i]...), args[i+1:]...)
		break
	}
	if g.sub == nil {
		if len(args) > 0 || s.NoArgs == Unknown {
			g.j.Does = Unknown
			g.j.Why = s.Name + " with an unknown subcommand"
		}
	} else {
		g.j.Does, g.j.Why = g.sub.Does, g.sub.Why
		g.opts = append(append([]Opt{}, g.opts...), g.sub.Opts...)
	}
	return args
}

// operand records an argument that is no option, and the effect the
// base gives that word (Words).
func (g *judging) operand(text string) {
	g.j.Operands = append(g.j.Operands, text)
	for _, w := range g.s.Words {
		if strings.EqualFold(w.Name, text) && (g.wordEffect == Unknown || worse(g.wordEffect, w.Does) == w.Does) {
			g.wordEffect = w.Does
			if w.Why != "" {
				g.j.Why = w.Why
			}
		}
	}
}

// option reads the option args[i], and its value when it takes one (it
// then reports true: the next argument is consumed).
func (g *judging) option(args []Arg, i int) (tookNext bool) {
	a, s, sh := args[i], g.s, g.sh
	takesValue := false
	for _, v := range s.Values {
		if optMatches(sh, a.Text, v) && !strings.Contains(a.Text, ":") {
			takesValue = true
		}
	}
	var value string
	if takesValue && i+1 < len(args) {
		value = args[i+1].Text
		g.j.Values = append(g.j.Values, value)
		if pathParam(s, sh, a.Text) {
			g.j.Files = append(g.j.Files, value)
		}
		if patternParam(sh, a.Text) {
			g.patternGiven = true
		}
		if sh == PowerShell && (optMatches(sh, a.Text, "-Filter") || optMatches(sh, a.Text, "-Include")) {
			g.j.Patterns = append(g.j.Patterns, value)
		}
		tookNext = true
	} else if k := strings.IndexByte(a.Text, ':'); k > 0 && sh == Cmd {
		value = a.Text[k+1:]
		switch strings.ToLower(a.Text[:k]) {
		case "/c":
			g.patternGiven = true
		case "/g", "/f":
			g.patternGiven = g.patternGiven || strings.EqualFold(a.Text[:k], "/g")
			g.j.Files = append(g.j.Files, value) // findstr reads patterns or names from a file
		}
	}
	listed := false
	for _, o := range g.opts {
		if optMatches(sh, a.Text, o.Name) {
			listed = true
		}
	}
	if sub := g.sub; !listed && sub != nil && sub.Other != Unknown {
		g.raise(sub.Other, sub.OtherWhy)
	}
	for _, o := range g.opts {
		if g.applies(o, a.Text, value) {
			g.optEffect(o, value, takesValue)
		}
	}
	return tookNext
}

// applies says whether the base's option o is the argument a with value.
func (g *judging) applies(o Opt, a, value string) bool {
	return optMatches(g.sh, a, o.Name) && (o.Value == "" || strings.EqualFold(o.Value, value)) &&
		(o.ValueHas == "" || strings.Contains(strings.ToLower(value), o.ValueHas))
}

// optEffect records what a matching option o does.
func (g *judging) optEffect(o Opt, value string, takesValue bool) {
	if o.Recurse {
		g.j.Recurse = true
	}
	if o.Named {
		g.j.Named = true
	}
	if o.Does == Writes && value != "" && !takesValue {
		// /output:FILE: the file it writes
		g.j.Values = append(g.j.Values, value)
	}
	switch o.Does {
	case Unknown:
	case Reads:
		// an option that makes it only read (date /t, schtasks /query)
		g.lowered = true
	default:
		why := o.Why
		if why == "" {
			why = g.s.Name + " " + o.Name
		}
		g.raise(o.Does, why)
	}
}

// raise records an option's effect when it is worse than any so far.
func (g *judging) raise(e Effect, why string) {
	if !g.hasRaised || worse(g.raised, e) == e && e != g.raised {
		g.hasRaised, g.raised, g.raisedWhy = true, e, why
	}
}

// settle works out what the whole line comes to from what the options
// and operands said, and the entry's line-wide forms (Mentions, Assigns,
// help, RunsURL).
func (g *judging) settle(args []Arg) {
	j, s := &g.j, g.s
	if g.lowered {
		j.Does, j.Why = Reads, ""
	}
	if g.hasRaised && worse(j.Does, g.raised) == g.raised && g.raised != j.Does {
		j.Does, j.Why = g.raised, g.raisedWhy
		if g.raised != Reads {
			j.Cat = CatNone
			if g.raised == Dangerous && s.Cat == CatDelete {
				j.Cat = CatDelete
			}
		}
	}
	switch s.Args {
	case FileArgs:
		j.Files = append(j.Files, j.Operands...)
	case PatternArgs:
		ops := j.Operands
		if !g.patternGiven && len(ops) > 0 {
			ops = ops[1:]
		}
		j.Files = append(j.Files, ops...)
	}
	if g.wordEffect != Unknown {
		if g.wordEffect == Reads && j.Does == s.Does {
			j.Does = Reads
		} else {
			j.Does = worse(j.Does, g.wordEffect)
		}
	}
	if sub := g.sub; sub != nil && sub.MaxOps > 0 && len(j.Operands) > sub.MaxOps && worse(j.Does, sub.More) == sub.More {
		j.Does, j.Why, j.Cat = sub.More, sub.MoreWhy, CatNone
	}
	g.lineWide(args)
}

// lineWide applies the entry's forms that look at the whole line: words
// it mentions, whether it assigns, a request for help, a URL it runs.
func (g *judging) lineWide(args []Arg) {
	j, s := &g.j, g.s
	for _, m := range s.Mentions {
		for _, a := range args {
			if strings.Contains(strings.ToLower(a.Text), m.Name) && worse(j.Does, m.Does) == m.Does {
				j.Does, j.Why, j.Cat = m.Does, m.Why, CatNone
			}
		}
	}
	if s.Assigns && len(args) > 0 && !assigns(args) {
		j.Does, j.Why, j.Cat = Reads, "", CatNone
	}
	if len(args) == 1 && (args[0].Text == "/?" || args[0].Text == "-?") && !args[0].Quoted {
		// its help, and nothing else
		j.Does, j.Why, j.Cat, j.Operands, j.Files = Reads, "", CatNone, nil, nil
	}
	if s.RunsURL {
		for _, a := range args {
			if t := strings.ToLower(a.Text); strings.Contains(t, "://") || strings.HasPrefix(t, `\\`) || strings.Contains(t, `:\\`) {
				j.Does, j.Why, j.Cat = Dangerous, "runs code from the network ("+s.Name+" "+a.Text+")", CatNone
			}
		}
	}
}

// pathParam says whether option a of s takes a path (-Path,
// -LiteralPath, -FilePath, -DestinationPath…): any value option it may
// abbreviate does.
func pathParam(s *Spec, sh Shells, a string) bool {
	for _, v := range s.Values {
		lv := strings.ToLower(v)
		if optMatches(sh, a, v) && (strings.Contains(lv, "path") || !s.Lists && (lv == "-filter" || lv == "-include")) {
			// a reader's -Filter and -Include name the files it reads
			return true
		}
	}
	return false
}

func patternParam(sh Shells, a string) bool {
	return sh == PowerShell && optMatches(sh, a, "-Pattern")
}

func textOf(args []Arg) []string {
	var out []string
	for _, a := range args {
		out = append(out, a.Text)
	}
	return out
}

// Portable reports whether a program behaves on Windows as on Unix, so
// its arguments may be judged by the bash analysis.
func Portable(name string) bool { return portable[winshell.ProgramName(name)] }

// String names the shell.
func (s Shells) String() string {
	switch s {
	case Cmd:
		return "cmd.exe"
	case PowerShell:
		return "PowerShell"
	}
	return "Windows"
}

// MayDestroy reports a command name of either Windows shell, or a
// program of the POSIX base marked Alarm, that destroys data or weakens
// the system in some form: dangerous whatever its arguments, deleting,
// or dangerous with one of its options, words or subcommands.
func MayDestroy(name string) bool {
	if Unix(strings.ToLower(name)).Has(Alarm) {
		return true
	}
	for _, sh := range []Shells{PowerShell, Cmd} {
		if s := Lookup(sh, name); s != nil && s.mayDestroy() {
			return true
		}
	}
	return false
}

func (s *Spec) mayDestroy() bool {
	if s.Does == Dangerous || s.Cat == CatDelete {
		return true
	}
	for _, list := range [][]Opt{s.Opts, s.Words, s.Mentions} {
		for _, o := range list {
			if o.Does == Dangerous {
				return true
			}
		}
	}
	for _, sub := range s.Subs {
		if sub.Does == Dangerous || sub.More == Dangerous || sub.Other == Dangerous {
			return true
		}
	}
	return false
}

// assigns reports an argument that sets a value (NAME=VALUE) or is a
// switch (set /a, set /p).
func assigns(args []Arg) bool {
	for _, a := range args {
		if strings.Contains(a.Text, "=") || strings.HasPrefix(a.Text, "/") {
			return true
		}
	}
	return false
}

// WindowsNames returns every command name (canonical, aliases; lower
// case) of cmd.exe's and PowerShell's base, sorted.
func WindowsNames() []string {
	winTables()
	seen := map[string]bool{}
	for _, m := range []map[string]*Spec{builtins[Cmd], builtins[PowerShell], programs} {
		for n := range m {
			seen[n] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
