package cmdbase

import (
	"strings"

	"github.com/nb-cli/nb/internal/shellparse"
)

// The long tail of read-only tools, as data read from their manuals:
// documentation lookups, text formatters, coreutils, util-linux and
// procps query tools, the systemd query family and package query tools.
// Each such entry of a family table (safeCmd.args) allow-lists the
// options the manual documents as only reading or printing; any other
// option (one that writes a file, runs a program, talks to the network or
// is simply unknown) makes the command ask.

// operandKind says what the operands (other than a verb) of a command are.
type operandKind int

const (
	// opFiles: files whose content or metadata the command reads.
	opFiles operandKind = iota
	// opNames: names looked up in the system (manual pages, units,
	// packages, variables), never paths.
	opNames
	// opNumbers: numbers (process ids, intervals, counts).
	opNumbers
	// opNone: no operand.
	opNone
)

// argSpec is one command's allow-listed options and operands.
type argSpec struct {
	// flags: short options without a value; digits allows -NUM.
	flags  string
	digits bool
	// values: short options whose value is attached or the next word.
	values string
	// attached: short options whose optional value is only attached
	// (pr -n:3).
	attached string
	// longs: long options; a trailing "=" marks one taking a value
	// (attached or the next word), "?" an optional attached value.
	longs []string
	// verbs: the first operand must be one of them; "" allows none.
	verbs []string
	// plus allows +N operands (pr +3).
	plus bool
	// operands: what the other operands are; maxOps limits their number
	// (0: no limit).
	operands operandKind
	maxOps   int
	// reads: the operands are files whose content is shown (the secret
	// path rules judge them).
	reads bool
	// pure: no option of the command writes, runs or connects, so glob
	// and run-time arguments cannot make it do so.
	pure bool
	// atFiles: @FILE arguments are response files (safeCmd.atFiles).
	atFiles bool
	// pattern: the first operand is a pattern, not a file, unless one of
	// patternFlags is given; recursive: it reads the directories it is
	// given (or the current one) recursively.
	pattern      bool
	patternFlags string
	recursive    bool
	// infinite: it prints without end unless its output is a pipe whose
	// reader stops (yes).
	infinite bool
	// extra says why the words (ws), the verb and the operands are not
	// read-only, or "".
	extra func(ws []word, verb string, ops []word) string
}

// check parses ws as the command's getopt would and returns why it is not
// read-only, or "".
func (s argSpec) check(name string, ws []word) string {
	ops, why := s.operandsOf(name, ws)
	if why != "" {
		return why
	}
	verb := ""
	if s.verbs != nil {
		if verb, ops, why = s.verbOf(name, ops); why != "" {
			return why
		}
	}
	if why := s.opsWhy(name, ops); why != "" {
		return why
	}
	if s.extra != nil {
		return s.extra(ws, verb, ops)
	}
	return ""
}

// operandsOf reads the options of ws, and returns its operands or why an
// option is not read-only.
func (s argSpec) operandsOf(name string, ws []word) ([]word, string) {
	var longNames []string
	takes := map[string]byte{}
	for _, l := range s.longs {
		n := strings.TrimRight(l, "=?")
		longNames = append(longNames, n)
		if n != l {
			takes[n] = l[len(l)-1]
		}
	}
	var ops []word
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		t := w.Text
		if !w.Static() {
			if !s.pure {
				return nil, name + " argument " + w.Raw + " is chosen at run time"
			}
			ops = append(ops, w)
			continue
		}
		switch {
		case t == "--":
			ops = append(ops, ws[i+1:]...)
			i = len(ws)
		case strings.HasPrefix(t, "--"):
			n, _, eq := strings.Cut(t[2:], "=")
			long := shellparse.ResolveLong(n, longNames)
			if long == "" {
				return nil, name + " option " + t + " is not known to be read-only"
			}
			switch takes[long] {
			case '=':
				if !eq {
					i++
				}
			case 0:
				if eq {
					return nil, name + " option " + t + " takes no value"
				}
			}
		case s.plus && strings.HasPrefix(t, "+") && len(t) > 1:
		case len(t) > 1 && t[0] == '-':
			next, why := s.shorts(name, t)
			if why != "" {
				return nil, why
			}
			if next {
				i++
			}
		default:
			ops = append(ops, w)
		}
	}
	return ops, ""
}

// shorts reads a cluster of short options (-nr, -n5, -n): whether the
// next word is the last one's value, or why one is not read-only.
func (s argSpec) shorts(name, t string) (next bool, why string) {
	for j := 1; j < len(t); j++ {
		c := t[j]
		switch {
		case s.digits && c >= '0' && c <= '9':
		case strings.IndexByte(s.flags, c) >= 0:
		case strings.IndexByte(s.attached, c) >= 0:
			return false, ""
		case strings.IndexByte(s.values, c) >= 0:
			return j == len(t)-1, ""
		default:
			return false, name + " option -" + string(c) + " is not known to be read-only"
		}
	}
	return false, ""
}

// verbOf takes the verb (the first operand) of a command that has them.
func (s argSpec) verbOf(name string, ops []word) (string, []word, string) {
	verb := ""
	if len(ops) > 0 {
		verb = ops[0].Text
		if !ops[0].Static() {
			return "", nil, name + " command chosen at run time"
		}
		ops = ops[1:]
	}
	for _, v := range s.verbs {
		if v == verb {
			return verb, ops, ""
		}
	}
	if verb == "" {
		return "", nil, name + " without a command is not known to be read-only"
	}
	return "", nil, name + " " + verb + " is not known to be read-only"
}

// opsWhy judges the operands: how many, and of what kind.
func (s argSpec) opsWhy(name string, ops []word) string {
	if s.maxOps > 0 && len(ops) > s.maxOps || s.operands == opNone && len(ops) > 0 {
		return name + " with these operands is not known to be read-only"
	}
	for _, o := range ops {
		switch s.operands {
		case opNames:
			if !o.Static() || strings.ContainsAny(o.Text, "/=~") || strings.HasPrefix(o.Text, ".") {
				return name + " " + o.Raw + " is not a plain name"
			}
		case opNumbers:
			if !digits(o.Text) {
				return name + " " + o.Raw + " is not a number"
			}
		}
	}
	return ""
}

// safe makes the builtinSafe entry of the spec.
func (s argSpec) safe(name string) safeCmd {
	c := safeCmd{reads: s.reads, dynOK: s.pure && !s.atFiles, valueShort: s.values, endless: s.reads || s.infinite,
		pattern: s.pattern, patternFlags: s.patternFlags, infinite: s.infinite, atFiles: s.atFiles,
		check: func(ws []word) string { return s.check(name, ws) }, args: &s}
	if s.recursive {
		c.recursive = func([]word) bool { return true }
	}
	return c
}

// ltGNUInfo are the long options every GNU tool has.
var ltGNUInfo = []string{"help", "version"}

func ltLongs(extra ...string) []string { return append(extra, ltGNUInfo...) }
