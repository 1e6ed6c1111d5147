package cmdbase

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Programs as a POSIX shell runs them (bash on Linux and macOS, Git Bash,
// and the portable programs of Windows): one entry per program in the
// family files unix_*.go. The bash analysis (package policy) reads them:
// the traits say what kind of program it is, Danger and the dangerous
// subcommands say what is warned whatever the options, Globals and Subs
// say how its command line is shaped for the narrowest "Always" rule.
// Each family's read-only argument grammar (which options only print,
// which operands it reads) is the safe list beside it: safe_<family>.go
// next to unix_<family>.go, keyed by the same names (safe.go).

// Trait is a kind of behaviour a program has, whatever its arguments.
type Trait uint32

const (
	// Shell runs shell scripts; its -c script and script files are parsed
	// as bash.
	Shell Trait = 1 << iota
	// Interpreter runs code in a language (python -c, node -e, awk
	// programs, eval): network data piped into it is dangerous.
	Interpreter
	// ScriptFile runs a script file named as its first operand
	// (python3 manage.py …): "Always" names the script.
	ScriptFile
	// Wrapper runs another command given as its arguments (sudo, env,
	// xargs, timeout): no rule narrower than the exact command exists.
	Wrapper
	// RunsArgs runs an argument as a shell command line, often elsewhere
	// (ssh host 'cmd', tmux new 'cmd', docker exec c sh -c 'cmd').
	RunsArgs
	// Relay passes its terminal input to a shell (ssh, su, docker exec).
	Relay
	// Network talks to the network by design.
	Network
	// SendsData can send any data anywhere: a rule "cmd *" would let any data
	// leave the machine, so "Always" is not offered.
	SendsData
	// Subcommands: "Always" saves the command and its subcommand.
	Subcommands
	// RunScripts runs a project script named after "run" (npm run build).
	RunScripts
	// FileOperands: its operands are files, so a bare word among them
	// (rm -rf build) is a file of the directory.
	FileOperands
	// Checked: some forms of it are dangerous, judged by its arguments.
	Checked
	// NoRule: no narrow rule exists for it (it runs what its arguments
	// say: find -exec, strace, busybox, npx).
	NoRule
	// Suffixed: NAME.SUFFIX is the same program (mkfs.ext4).
	Suffixed
	// Prefixed: any name starting with NAME is a build of the same
	// program (python3.12d, pythonw).
	Prefixed
	// Harmless: a Wrapper that only runs its inner command (timeout,
	// nice, env): the inner command decides.
	Harmless
	// NoDir: its outcome does not depend on the directory it runs in.
	NoDir
	// Metadata: it shows names, sizes or counts of the files it is given,
	// never their content.
	Metadata
	// Removes deletes or moves its operands (warned, seed 000).
	Removes
	// Alarm: in text nb cannot parse, its name makes the default answer
	// No (a guess can only make the answer more careful).
	Alarm
	// Toolchain: the project's files may make it fetch and run another
	// release of itself (go.mod's go and toolchain lines): even its
	// read-only forms are safe only where the disk says they will not.
	Toolchain
	// Finds: it walks trees from its starting points and runs the
	// commands of its -exec on each file it finds (find).
	Finds
	// FeedsArgs: its command gets the words it reads from its input as
	// arguments (xargs).
	FeedsArgs
	// ListsNames: it prints the bare names of a directory's entries,
	// one a line (ls).
	ListsNames
	// History: it shows what was typed into the shell, passwords
	// included (history, fc).
	History
	// ShowsVars: it prints variables, which may hold secrets (env,
	// set, declare -p, compgen -v); with VarNames only those it names.
	ShowsVars
	// SetsOptions: given options alone it sets the shell's options and
	// prints nothing (set -e).
	SetsOptions
	// Bourne: a shell whose language is the bash nb parses (bash, sh,
	// dash; not zsh's glob qualifiers nor fish).
	Bourne
	// Echoes: it prints its arguments (or, without operands, its input):
	// with one redirection that writes, the display shows a write of
	// that file (echo x > f, cat > f).
	Echoes
	// NameRefs: its -n makes a name refer to another variable (declare
	// -n r=TOKEN: $r reads TOKEN).
	NameRefs
	// ReadsLine: it reads a line of input into variables (in a session,
	// an earlier declare -i makes that arithmetic, which runs $(…) in
	// the input).
	ReadsLine
)

// Lang is the language a program reads as code.
type Lang int

const (
	NoLang Lang = iota
	Python
	JavaScript
	Ruby
	SQL
	// OtherLang: a REPL of another language (generic code patterns).
	OtherLang
)

// Family is a family of commands. The families below keep their
// programs (unix_<family>.go) and their read-only grammar
// (safe_<family>.go) in two files; a new family may keep both in one:
// its Family constant, registerUnix of its entries (each with its
// Examples) and registerSafe of its read-only table. Nothing else names
// a family.
type Family string

const (
	Languages  Family = "languages"
	Coreutils  Family = "coreutils"
	Text       Family = "text"
	Git        Family = "git"
	Containers Family = "containers"
	System     Family = "system"
	Packages   Family = "packages"
)

// Prog is what the base knows about one program.
type Prog struct {
	Name string
	// Family is the family whose file lists it.
	Family Family
	// Aliases are other names of the same program (nodejs for node).
	// Versioned names (python3.12, node20, pip3) find their entry by
	// the name without the version.
	Aliases []string
	Is      Trait
	// Danger says why it is dangerous whatever its arguments.
	Danger string
	// Lang is the language it reads as code (REPL input, -c/-e).
	Lang Lang
	// Globals are options before the subcommand that take a separate
	// value (git -C DIR, kubectl -n NS).
	Globals []string
	// Values are the letters of its short options that take a value
	// (cp -t DIR, install -m MODE).
	Values string
	// Ends are its options, before a subcommand and without a value,
	// after which it reads no subcommand: it prints and exits (git
	// --version, --exec-path).
	Ends []string
	// Outputs are its options whose value is a file it writes.
	Outputs []Output
	// Subs are the subcommands that are dangerous, or that run programs
	// or write anywhere through their options.
	Subs []ProgSub
	// Forms are its dangerous forms (rm -r, crontab -r, init 0).
	Forms []Form
	// Dangers, when set, says why its arguments make a dangerous form
	// that Forms and Subs cannot describe (git reset, git push --force,
	// chmod 777), or "": a check function named beside its entry.
	Dangers func(args []Word) string
	// Writes, when set, says how its arguments make it write files
	// (sed -i, tee FILE, tar -x, git format-patch -o) and the files it
	// can name, or "": a check function named beside its entry.
	Writes func(args []Word) (string, []Word)
	// Targets, when set, says where its arguments make it write: the
	// destination and the sources it copies there (cp, mv, install, ln,
	// rsync), or every operand (tee, truncate).
	Targets func(args []Word) Targets
	// RunsConfigured, when set, says why its arguments make it run
	// programs configured elsewhere (git --ext-diff, git -C on another
	// repository), given whether the disk's facts will judge the
	// repository it reads, or "".
	RunsConfigured func(args []Word, facts bool) string
	// ReadsFrom are its options whose value is a file it reads (xargs
	// -a FILE).
	ReadsFrom []Output
	// VarNames: its operands are the names of the variables it prints
	// (printenv NAME).
	VarNames bool
	// RuleGlobals are its global options an Always rule keeps with their
	// values, so the rule matches only with them (git -C DIR, -c K=V).
	RuleGlobals []string
	// Module is its option naming a module it runs (python -m): an
	// Always rule keeps it and the module's name.
	Module string
	// Shown says how the display shows a single command of it (cat x is
	// "read: x", cp a b "copy: a → b").
	Shown *Shown
	// Version are options that, given alone, only print the version or
	// help and exit before the program reads a project file, runs code
	// or talks to the network.
	Version []string
	// Examples are commands of it with what nb decides for them, run as
	// tests (examples.go).
	Examples Examples
}

// ProgSub is a subcommand of a program. Name may hold several words
// ("system prune").
type ProgSub struct {
	// Name is the subcommand's words; a word ending in * matches any
	// word it starts (aws "* delete-*" is aws ec2 delete-vpc).
	Name string
	// Danger says why it is dangerous (warned, default No, no Always);
	// with Forms, only in one of them (docker compose down -v).
	Danger string
	Forms  []Form
	// Runs: it runs programs or writes anywhere through its options
	// (docker run -v /:/host, git rebase --exec): "Always" saves only the
	// exact command.
	Runs bool
}

// Form is a dangerous form of a program: one of its short option letters,
// long options or words is among the arguments (before "--" for
// options).
type Form struct {
	// Short are option letters, any of which makes the form (rm -r, -R).
	Short string
	// Long are long options, any of which (or an abbreviation GNU getopt
	// accepts) makes the form.
	Long []string
	// Words are arguments that make the form when one is given whole
	// (find -delete, init 0).
	Words []string
	// Values are the option letters whose value follows (crontab -u
	// USER), so it is not read as letters.
	Values string
	// Prefixes are the starts of arguments that make the form, case
	// ignored (socat's EXEC: and SYSTEM: addresses).
	Prefixes []string
	// Pattern, when set, makes the form of any argument it matches (a
	// statement given to a database client).
	Pattern *regexp.Regexp
	Why     string
}

// FormDanger says why args make a dangerous form of p, or "".
func (p *Prog) FormDanger(args []string) string {
	if p == nil {
		return ""
	}
	for _, f := range p.Forms {
		if f.matches(args) {
			return p.Name + " " + f.Why
		}
	}
	return ""
}

func (f Form) matches(args []string) bool {
	skip := false
	for _, a := range args {
		for _, w := range f.Words {
			if a == w {
				return true
			}
		}
		for _, pre := range f.Prefixes {
			if len(a) >= len(pre) && strings.EqualFold(a[:len(pre)], pre) {
				return true
			}
		}
		if f.Pattern != nil && f.Pattern.MatchString(a) {
			return true
		}
		if skip {
			skip = false
			continue
		}
		if a == "--" {
			// only words after it
			f.Short, f.Long = "", nil
			continue
		}
		switch {
		case strings.HasPrefix(a, "--") && len(a) > 2:
			n, _, _ := strings.Cut(a[2:], "=")
			for _, l := range f.Long {
				if n == l || n != "" && strings.HasPrefix(l, n) {
					return true
				}
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(f.Short, a[j]) >= 0 {
					return true
				}
				if strings.IndexByte(f.Values, a[j]) >= 0 {
					skip = j == len(a)-1
					break
				}
			}
		}
	}
	return false
}

// Has reports whether p has every trait of t; a nil p has none.
func (p *Prog) Has(t Trait) bool { return p != nil && p.Is&t == t }

// Any reports whether p has one of the traits of t.
func (p *Prog) Any(t Trait) bool { return p != nil && p.Is&t != 0 }

// RunsCode reports whether p runs code it is given: a shell or an
// interpreter.
func (p *Prog) RunsCode() bool { return p.Any(Shell | Interpreter) }

// NoAlways reports whether no narrow rule exists for p: shells,
// interpreters without subcommands, wrappers, programs that run what
// their arguments say and programs that send data anywhere.
func (p *Prog) NoAlways() bool {
	if p == nil {
		return false
	}
	return p.Any(Shell|Wrapper|NoRule|SendsData) || p.Has(Interpreter) && !p.Has(Subcommands)
}

// ValueLetters returns the letters of p's short options that take a
// value; none for a program the base does not know.
func (p *Prog) ValueLetters() string {
	if p == nil {
		return ""
	}
	return p.Values
}

// Global is one option read before a program's subcommand, as the
// program reads it.
type Global struct {
	// Name is the option as written, without "=VALUE".
	Name string
	// Value is its value: the next word for an option the base lists in
	// Globals, else the text after "=" (HasValue says there is one).
	Value    Word
	HasValue bool
}

// Subcommand reads args as p reads its command line: the global options
// before the subcommand, each with its value, and the index of the
// subcommand in args (len(args) when there is none). An option p lists
// in Globals takes the next word as its value unless it is written
// --opt=VALUE; any other word starting with "-" is an option alone. It is
// the one reader of global options: the dangerous forms, the read-only
// grammar, the Always rule and the disk facts all find the subcommand
// here (git --namespace x reset --hard is git reset).
func (p *Prog) Subcommand(args []Word) (globals []Global, at int) {
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		if !strings.HasPrefix(t, "-") || t == "-" || t == "--" {
			if t == "--" {
				return globals, min(i+1, len(args))
			}
			return globals, i
		}
		g := Global{Name: t}
		if name, v, ok := strings.Cut(t, "="); ok && strings.HasPrefix(t, "--") {
			g.Name, g.Value, g.HasValue = name, Word{Text: v, Raw: v, Dynamic: args[i].Dynamic, Glob: args[i].Glob}, true
		} else if p.IsGlobal(t) && i+1 < len(args) {
			i++
			g.Value, g.HasValue = args[i], true
		}
		globals = append(globals, g)
		if !g.HasValue && slices.Contains(p.Ends, g.Name) {
			return globals, len(args)
		}
	}
	return globals, len(args)
}

// IsGlobal reports whether opt is one of p's global options taking a
// separate value.
func (p *Prog) IsGlobal(opt string) bool {
	if p == nil {
		return false
	}
	for _, g := range p.Globals {
		if g == opt {
			return true
		}
	}
	return false
}

// Sub finds the subcommand of p that words (the operands after the
// global options, in order) start with; the longest name wins.
func (p *Prog) Sub(words []string) *ProgSub {
	if p == nil {
		return nil
	}
	var best *ProgSub
	for i := range p.Subs {
		s := &p.Subs[i]
		parts := strings.Fields(s.Name)
		if len(parts) > len(words) {
			continue
		}
		ok := true
		for k, part := range parts {
			if prefix, wild := strings.CutSuffix(part, "*"); wild {
				ok = ok && strings.HasPrefix(words[k], prefix)
			} else {
				ok = ok && words[k] == part
			}
		}
		if ok && (best == nil || len(parts) > len(strings.Fields(best.Name))) {
			best = s
		}
	}
	return best
}

// Operands returns the words after p's global options up to the first
// option after them: the subcommand path (kubectl -n x delete ns prod →
// delete ns prod). Options between subcommand words are skipped as far
// as the base knows their values.
func (p *Prog) Operands(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			if !strings.Contains(a, "=") && p.IsGlobal(a) {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// ArgsDanger says why args make a dangerous form of p that its own
// check (Prog.Dangers) knows, or "".
func (p *Prog) ArgsDanger(args []Word) string {
	if p == nil || p.Dangers == nil {
		return ""
	}
	return p.Dangers(args)
}

// formed reports whether args are in one of s's dangerous forms; a
// subcommand without forms is dangerous in any.
func (s *ProgSub) formed(args []string) bool {
	if len(s.Forms) == 0 {
		return true
	}
	for _, f := range s.Forms {
		if f.matches(args) {
			return true
		}
	}
	return false
}

// SubDanger says why the subcommand in args is dangerous, or "". An
// option the base does not know, before the subcommand, may take a value
// (kubectl -v 3 delete ns prod): the subcommand may start after each such
// value.
func (p *Prog) SubDanger(args []string) string {
	ops := p.Operands(args)
	unknown := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			break
		}
		switch {
		case strings.Contains(a, "="):
		case p.IsGlobal(a):
			i++
		default:
			unknown++
		}
	}
	for i := 0; i <= unknown && i < len(ops); i++ {
		if s := p.Sub(ops[i:]); s != nil && s.Danger != "" && s.formed(args) {
			return p.Name + " " + s.Name + ": " + s.Danger
		}
	}
	return ""
}

// Programs answers the bash analysis's questions about programs from
// the base (shellparse.Programs).
type Programs struct{}

// IsShell reports a shell whose scripts are analysed as bash.
func (Programs) IsShell(name string) bool { return Unix(name).Has(Shell) }

// IsNetworkTool reports a program that talks to the network by design.
func (Programs) IsNetworkTool(name string) bool { return Unix(name).Has(Network) }

// PrintsNumber reports a command whose output is one number: wc with
// one count option reading its input, nproc, id -u or -g.
func (Programs) PrintsNumber(words []string) bool {
	if len(words) == 0 {
		return false
	}
	args := words[1:]
	switch words[0] {
	case "wc":
		return len(args) == 1 && slices.Contains([]string{"-l", "-c", "-w", "-m", "-L", "--lines", "--bytes", "--words", "--chars", "--max-line-length"}, args[0])
	case "nproc":
		return len(args) == 0 || len(args) == 1 && args[0] == "--all"
	case "id":
		return len(args) == 1 && (args[0] == "-u" || args[0] == "-g")
	}
	return false
}

// unix is the base: program name → entry.
var unix = map[string]*Prog{}

// unixLists are the families' lists as each family's file registers its
// own (registerUnix); unixTables fills unix and prefixed from them, in
// the order registered, on first use.
var unixLists []func()

func registerUnix(f Family, list func() []Prog) bool {
	unixLists = append(unixLists, func() { addProgs(f, list()) })
	return true
}

var unixTables = sync.OnceFunc(func() {
	for _, add := range unixLists {
		add()
	}
})

func addProgs(f Family, family []Prog) {
	for i := range family {
		p := &family[i]
		p.Family = f
		for _, n := range append([]string{p.Name}, p.Aliases...) {
			if _, dup := unix[n]; dup {
				panic("cmdbase: program " + n + " listed twice")
			}
			unix[n] = p
		}
		if p.Has(Prefixed) {
			prefixed = append(prefixed, p)
		}
	}
}

// prefixed are the Prefixed programs.
var prefixed []*Prog

// Unix finds the entry of a program by its base name (no directory):
// the name itself, the name without a version (python3.12, node20,
// pip3), a name a Prefixed program's starts, or for Suffixed programs the
// name before its first dot
// (mkfs.ext4). It returns nil for a program the base does not know.
func Unix(name string) *Prog {
	unixTables()
	if p := unix[name]; p != nil {
		return p
	}
	if v := unversioned(name); v != name {
		if p := unix[v]; p != nil {
			return p
		}
	}
	for _, p := range prefixed {
		if strings.HasPrefix(name, p.Name) {
			return p
		}
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		if p := unix[name[:i]]; p.Has(Suffixed) {
			return p
		}
	}
	return nil
}

// unversioned strips a version from a name: python3.12 → python,
// node20 → node, pip3 → pip. Only trailing digits and dots go.
func unversioned(name string) string {
	i := len(name)
	for i > 0 && (name[i-1] >= '0' && name[i-1] <= '9' || name[i-1] == '.') {
		i--
	}
	if i == 0 || i == len(name) || name[i-1] == '-' || name[i-1] == '_' {
		return name
	}
	return name[:i]
}

// UnixNames returns every name the base knows, aliases included, in
// order.
func UnixNames() []string {
	unixTables()
	out := make([]string, 0, len(unix))
	for n := range unix {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Shown is how the display shows a single command of a program: a
// category and its operands, the options that take a value (Values,
// Longs), and how many operands the form has (0: one or more).
type Shown struct {
	Cat    Category
	Values string
	Longs  []string
	// Operands is the number of operands the form needs (read: 1, copy
	// and move: 2); 0 for one or more.
	Operands int
	// PlainOpts are the only options the form allows ("" any): cp and mv
	// are shown "A → B" only without options that change what is
	// written or where (-t DIR, -r, -S SUFFIX).
	PlainOpts []string
}

// Targets is where a copying or writing program's arguments make it
// write (Prog.Targets).
type Targets struct {
	// Dests are the destinations: the last operand, or every operand of
	// a program that writes all it names (tee, truncate).
	Dests []Word
	// Dirs are the directories named by -t (its files land there).
	Dirs []Word
	// Sources are the operands copied into a destination directory.
	Sources []Word
	// Whole: every operand is written (tee, truncate).
	Whole bool
	// NoTarget: -T (the destination is the file itself); Recursive: a
	// tree is copied (-r, -a).
	NoTarget, Recursive bool
}

// ArgsWrite says how p's arguments make it write files through its
// options or operands (Prog.Writes), and the files it can name; "" for
// none or a program the base does not know.
func (p *Prog) ArgsWrite(args []Word) (string, []Word) {
	if p == nil || p.Writes == nil {
		return "", nil
	}
	return p.Writes(args)
}

// TargetsOf is where p's arguments make it write (Prog.Targets); ok is
// false for a program that writes no operand.
func (p *Prog) TargetsOf(args []Word) (t Targets, ok bool) {
	if p == nil || p.Targets == nil {
		return Targets{}, false
	}
	return p.Targets(args), true
}

// RunsElsewhere says why p's arguments make it run programs configured
// elsewhere (Prog.RunsConfigured), or "".
func (p *Prog) RunsElsewhere(args []Word, facts bool) string {
	if p == nil || p.RunsConfigured == nil {
		return ""
	}
	return p.RunsConfigured(args, facts)
}

// InputFiles are the files p's options name for it to read
// (Prog.ReadsFrom).
func (p *Prog) InputFiles(args []Word) []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, o := range p.ReadsFrom {
		out = append(out, OptionValues(args, o.Short, p.Values, o.Long)...)
	}
	return out
}

// Shows is how the display shows a single command of p, or nil.
func (p *Prog) Shows() *Shown {
	if p == nil {
		return nil
	}
	return p.Shown
}

// In reports whether p belongs to family f; a nil p to none.
func (p *Prog) In(f Family) bool { return p != nil && p.Family == f }
