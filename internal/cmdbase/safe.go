package cmdbase

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The safe list: the read-only argument grammar of each command, one
// table per family of the command base (cmdbase/unix_*.go), each with
// its examples beside it (safe_<family>_test.go):
//
//	safe_languages.go   shells' builtins and helpers
//	safe_coreutils.go   files and processes: coreutils, findutils, util-linux
//	safe_text.go        text tools: grep, sed, awk, jq, sort, comparers, archives
//	safe_git.go         git's read-only subcommands (its disk facts: policy/gitfacts.go)
//	safe_containers.go  docker, podman, kubectl
//	safe_system.go      the system, services and the network's configuration
//	safe_packages.go    package query tools, go, binutils
//
// An entry is either a safeCmd written by hand (its check function named
// beside the table) or args, the options and operands its manual
// documents as only reading (argSpec, safe_args.go). A family a user
// does not want auto-approved is removed with approval.safeCommands
// "!NAME".

// safeCmd describes a command that is read-only when its arguments pass
// check.
type safeCmd struct {
	// reads: the arguments name files whose content is shown.
	reads bool
	// pattern: the first positional is a pattern or script, not a file,
	// unless one of patternFlags is given.
	pattern      bool
	patternFlags string
	// dynOK: dynamic or glob arguments cannot turn it into a writer.
	dynOK bool
	// recursive reports reading directories recursively.
	recursive func(ws []word) bool
	// valueShort lists option letters taking a separate value.
	valueShort string
	// check returns why the arguments are not read-only, or "".
	check func(ws []word) string
	// endless: reading an endless device (/dev/zero, /dev/urandom) never
	// ends unless a later pipeline stage stops reading.
	endless bool
	// atFiles: an argument @FILE is replaced by the arguments FILE holds
	// (binutils' response files, even after --), which nb cannot see: a
	// file name to print, or an option such as --plugin.
	atFiles bool
	// infinite: it prints without end (yes): only a pipe whose reader
	// stops ends it.
	infinite bool
	// args, when set, is the command's grammar as its manual documents
	// it; the fields above are derived from it (argSpec.safe).
	args *argSpec
}

// safeLists are the family tables' builders, by family, as each family's
// file registers its own (registerSafe).
var safeLists = map[Family]func() map[string]safeCmd{}

// registerSafe adds a family's read-only table to the safe list.
func registerSafe(f Family, table func() map[string]safeCmd) bool {
	if safeLists[f] != nil {
		panic("cmdbase: family " + string(f) + " has two read-only tables")
	}
	safeLists[f] = table
	return true
}

// safeFamilies are the family tables, by family, and builtinSafe is
// every family's table in one map, version queries added; both are built
// on first use (safeTables), so a run that judges no command never
// builds them.
var (
	safeFamilies map[Family]map[string]safeCmd
	builtinSafe  map[string]safeCmd
)

var safeTables = sync.OnceFunc(func() {
	safeFamilies = make(map[Family]map[string]safeCmd, len(safeLists))
	for f, table := range safeLists {
		safeFamilies[f] = table()
	}
	builtinSafe = buildSafe(safeFamilies)
})

// ReadOnly is one command's read-only grammar, as the safe list holds it.
type ReadOnly = safeCmd

// Safe returns the read-only grammar of the command named name (its base
// name), and whether the safe list has one.
func Safe(name string) (ReadOnly, bool) {
	safeTables()
	s, ok := builtinSafe[name]
	return s, ok
}

// Reads reports that its operands name files whose content is shown.
func (s safeCmd) Reads() bool { return s.reads }

// Pattern reports that its first operand is a pattern or script, not a
// file, unless one of PatternFlags is given.
func (s safeCmd) Pattern() bool { return s.pattern }

// PatternFlags are the option letters that give the pattern instead.
func (s safeCmd) PatternFlags() string { return s.patternFlags }

// patternLongs are the long options of the pattern-first commands that
// give the pattern (or a file of them) instead of the first operand.
var patternLongs = []string{"regexp", "file", "expression", "from-file"}

// PatternLongs are the long options that give the pattern instead.
func (s safeCmd) PatternLongs() []string {
	if !s.pattern {
		return nil
	}
	return patternLongs
}

// DynOK reports that dynamic or glob arguments cannot make it write.
func (s safeCmd) DynOK() bool { return s.dynOK }

// ValueShort lists its option letters that take a separate value.
func (s safeCmd) ValueShort() string { return s.valueShort }

// Endless reports that it would read an endless device to its end.
func (s safeCmd) Endless() bool { return s.endless }

// Infinite reports that it prints without end whatever its arguments: it
// ends only when the reader of its output stops.
func (s safeCmd) Infinite() bool { return s.infinite }

// Recursive reports that with the arguments ws it reads directories
// recursively.
func (s safeCmd) Recursive(ws []Word) bool { return s.recursive != nil && s.recursive(ws) }

// Check says why the arguments ws are not read-only, or "".
func (s safeCmd) Check(ws []Word) string {
	if s.atFiles {
		for _, w := range ws {
			if strings.HasPrefix(w.Text, "@") {
				return w.Text + " reads more arguments from a file"
			}
		}
	}
	if s.check == nil {
		return ""
	}
	return s.check(ws)
}

// buildSafe joins the family tables (a name in two families is a bug),
// derives the specs of manual grammars, and lets every program answer
// the version queries the command base lists for it.
func buildSafe(families map[Family]map[string]safeCmd) map[string]safeCmd {
	all := map[string]safeCmd{}
	for _, fam := range families {
		for name, spec := range fam {
			if _, dup := all[name]; dup {
				panic("cmdbase: " + name + " is in two safe-list families")
			}
			if spec.args != nil {
				spec = spec.args.safe(name)
			}
			all[name] = spec
		}
	}
	addAliases(all)
	addVersions(all)
	return all
}

// addAliases: a program's other names (batcat for bat, fdfind for fd)
// have its read-only grammar.
func addAliases(all map[string]safeCmd) {
	for _, name := range UnixNames() {
		p := Unix(name)
		spec, ok := all[p.Name]
		if _, own := all[name]; !ok || own || name == p.Name || !slices.Contains(p.Aliases, name) {
			continue
		}
		all[name] = spec
	}
}

// addVersions: programs whose version or help option, given as the only
// argument, prints and exits before the program reads a project file,
// runs other code or talks to the network, are listed with those options
// in the command base (Prog.Version). Programs that may (cargo
// and rustc through rustup's toolchain files, yarn and pnpm through the
// project's package-manager settings, mvn through .mvn/jvm.config,
// terraform, gh and npm through update checks, java's virtual machine and
// top making their state directories) have none. A program on no family
// table is safe with such an option alone; one on a table also keeps its
// own grammar.
func addVersions(all map[string]safeCmd) {
	for _, name := range UnixNames() {
		opts := Unix(name).Version
		if len(opts) == 0 {
			continue
		}
		sole := func(ws []word) bool {
			return len(ws) == 1 && ws[0].Static() && AnyWord(ws, opts...)
		}
		spec, ok := all[name]
		if !ok {
			all[name] = safeCmd{check: func(ws []word) string {
				if sole(ws) {
					return ""
				}
				return name + " is not on the safe list"
			}}
			continue
		}
		inner := spec.check
		spec.check = func(ws []word) string {
			if sole(ws) {
				return ""
			}
			if inner == nil {
				return ""
			}
			return inner(ws)
		}
		all[name] = spec
	}
}

// Specs shared by many names.
var (
	// plain: a command whose arguments cannot make it write.
	plain = safeCmd{dynOK: true}
	// reader: shows the content of its file operands.
	reader = safeCmd{reads: true, dynOK: true, valueShort: "nNcCdfsbtwkeSTFLx", endless: true}
)

// VersionOnly reports arguments that are one of the options (or words)
// the base lists as only printing the program's version or help: true
// even for a program that talks to the network otherwise (ssh -V,
// openssl version).
func VersionOnly(name string, args []Word) bool {
	return len(args) == 1 && args[0].Static() && AnyWord(args, Unix(name).Version...)
}

// EndlessDevice names an endless device among the arguments.
func EndlessDevice(ws []word) string {
	for _, w := range ws {
		switch w.Text {
		case "/dev/zero", "/dev/urandom", "/dev/random", "/dev/full":
			return "reads " + w.Text + ", which never ends"
		}
	}
	return ""
}

func ForbidShort(letters string, valueLetters string, ws []word) string {
	f := ShortFlags(ws, valueLetters)
	for i := 0; i < len(letters); i++ {
		if f[letters[i]] {
			return "option -" + string(letters[i]) + " is not read-only"
		}
	}
	return ""
}

func ForbidLong(ws []word, names ...string) string {
	if HasLong(ws, names...) {
		return "option --" + strings.Join(names, "/--") + " is not read-only"
	}
	return ""
}

func first(reasons ...string) string {
	for _, r := range reasons {
		if r != "" {
			return r
		}
	}
	return ""
}

// verbAfter finds the first positional word (the verb or object) after
// global options, where valueOpts take a separate value; why is set when
// a global option is one of forbidden.
func verbAfter(ws []word, valueOpts map[string]bool, forbidden ...string) (int, string) {
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		if !strings.HasPrefix(t, "-") || t == "-" {
			return i, ""
		}
		name, _, _ := strings.Cut(t, "=")
		for _, f := range forbidden {
			if name == f {
				return -1, t + " points the command elsewhere"
			}
		}
		if valueOpts[t] {
			i++
		}
	}
	return len(ws), ""
}

// SecretKey matches configuration keys and search patterns that name
// credentials.
var SecretKey = regexp.MustCompile(`(?i)url|header|token|passw|secret|credential|api[_-]?key|private[_-]?key|auth|cookie|BEGIN .*PRIVATE`)

func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
