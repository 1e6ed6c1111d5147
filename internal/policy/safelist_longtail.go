package policy

import (
	"strings"

	"github.com/nb-cli/nb/internal/cmdbase"

	"github.com/nb-cli/nb/internal/shellparse"
)

// The long tail of read-only tools, as data read from their manuals:
// documentation lookups, text formatters, coreutils, util-linux and
// procps query tools, the systemd query family and package query tools.
// Each entry allow-lists the options the manual documents as only reading
// or printing; any other option (one that writes a file, runs a program,
// talks to the network or is simply unknown) makes the command ask.
// Entries are added to builtinSafe only where no hand-written spec exists.

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
	// extra says why the words (ws), the verb and the operands are not
	// read-only, or "".
	extra func(ws []word, verb string, ops []word) string
}

// check parses ws as the command's getopt would and returns why it is not
// read-only, or "".
func (s argSpec) check(name string, ws []word) string {
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
				return name + " argument " + w.Raw + " is chosen at run time"
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
				return name + " option " + t + " is not known to be read-only"
			}
			switch takes[long] {
			case '=':
				if !eq {
					i++
				}
			case 0:
				if eq {
					return name + " option " + t + " takes no value"
				}
			}
		case s.plus && strings.HasPrefix(t, "+") && len(t) > 1:
		case len(t) > 1 && t[0] == '-':
			for j := 1; j < len(t); j++ {
				c := t[j]
				switch {
				case s.digits && c >= '0' && c <= '9':
				case strings.IndexByte(s.flags, c) >= 0:
				case strings.IndexByte(s.attached, c) >= 0:
					j = len(t)
				case strings.IndexByte(s.values, c) >= 0:
					if j == len(t)-1 {
						i++
					}
					j = len(t)
				default:
					return name + " option -" + string(c) + " is not known to be read-only"
				}
			}
		default:
			ops = append(ops, w)
		}
	}
	verb := ""
	if s.verbs != nil {
		if len(ops) > 0 {
			verb = ops[0].Text
			if !ops[0].Static() {
				return name + " command chosen at run time"
			}
			ops = ops[1:]
		}
		ok := false
		for _, v := range s.verbs {
			ok = ok || v == verb
		}
		if !ok {
			if verb == "" {
				return name + " without a command is not known to be read-only"
			}
			return name + " " + verb + " is not known to be read-only"
		}
	}
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
			if !isNumber(o.Text) {
				return name + " " + o.Raw + " is not a number"
			}
		}
	}
	if s.extra != nil {
		return s.extra(ws, verb, ops)
	}
	return ""
}

// safe makes the builtinSafe entry of the spec.
func (s argSpec) safe(name string) safeCmd {
	return safeCmd{reads: s.reads, dynOK: s.pure, valueShort: s.values, endless: s.reads,
		check: func(ws []word) string { return s.check(name, ws) }}
}

// ltGNUInfo are the long options every GNU tool has.
var ltGNUInfo = []string{"help", "version"}

func ltLongs(extra ...string) []string { return append(extra, ltGNUInfo...) }

// longTail is the data: command name → its read-only arguments.
var longTail = map[string]argSpec{
	// documentation lookups; pages are names, never paths (man -l, a
	// path, -P, -H, -M, -C, -u, -X, -Z, -p are not allowed)
	"man": {flags: "afkKwWiI7V?", values: "sSLeERP", operands: opNames, extra: manPager,
		longs: ltLongs("pager=", "all", "whatis", "apropos", "global-apropos", "where", "path", "location", "where-cat",
			"location-cat", "sections=", "locale=", "extension=", "encoding=", "recode=", "ignore-case", "match-case",
			"regex", "wildcard", "names-only", "no-subpages", "ascii", "no-hyphenation", "nh", "no-justification",
			"nj", "warnings?", "usage")},
	"whatis": {flags: "dvrwlV?", values: "sL", operands: opNames,
		longs: ltLongs("debug", "verbose", "regex", "wildcard", "long", "sections=", "section=", "locale=", "usage")},
	"apropos": {flags: "dvrewalV?", values: "sL", operands: opNames,
		longs: ltLongs("debug", "verbose", "exact", "regex", "wildcard", "and", "long", "sections=", "section=", "locale=", "usage")},
	// info without --output, --dribble, --init-file, --file or -d
	// (info also looks for the name in the current directory: the
	// secret path rules judge it as a file)
	"info": {flags: "awOh", values: "kn", operands: opNames, reads: true,
		longs: ltLongs("all", "apropos=", "node=", "index-search=", "where", "location", "show-options", "usage", "subnodes", "vi-keys")},
	// bash's hash: without arguments, -l or -t NAME it prints the table
	// of remembered commands (hash NAME and -p PATH change it)
	"hash": {flags: "lt", operands: opNames,
		extra: func(ws []word, _ string, ops []word) string {
			if len(ops) > 0 && !shortFlags(ws, "")['t'] {
				return "hash NAME remembers where a command is"
			}
			return ""
		}},
	// bash's help prints the documentation of builtins
	"help": {flags: "dms", operands: opNames, pure: true},

	// text formatters and comparers (GNU coreutils): read files, print
	"pr": {flags: "acdfFJmrtTv", digits: true, values: "hlwWoDN", attached: "einsS", plus: true, reads: true, pure: true,
		longs: ltLongs("columns=", "across", "show-control-chars", "double-space", "date-format=", "expand-tabs?",
			"form-feed", "header=", "output-tabs?", "join-lines", "length=", "merge", "number-lines?",
			"first-line-number=", "indent=", "no-file-warnings", "separator?", "sep-string?", "omit-header",
			"omit-pagination", "show-nonprinting", "width=", "page-width=")},
	"tsort": {reads: true, pure: true, longs: ltLongs()},
	"sum":   {flags: "rs", reads: true, pure: true, longs: ltLongs("sysv")},
	// shuf without -o FILE or --random-source FILE
	"shuf": {flags: "erz", values: "in", reads: true,
		longs: ltLongs("echo", "input-range=", "head-count=", "repeat", "zero-terminated")},
	// iconv without -o FILE
	"iconv": {flags: "cls", values: "ft", reads: true,
		longs: ltLongs("from-code=", "to-code=", "list", "silent", "verbose", "usage")},
	"basenc": {flags: "di", values: "w", reads: true, pure: true,
		longs: ltLongs("base64", "base64url", "base58", "base32", "base32hex", "base16", "base2msbf", "base2lsbf",
			"z85", "decode", "ignore-garbage", "wrap=")},
	// util-linux filters: standard input to standard output
	"col":   {flags: "bfhpxV", values: "l", operands: opNone, pure: true, longs: ltLongs("no-backspaces", "fine", "tabs", "pass", "spaces", "lines=")},
	"colrm": {operands: opNumbers, maxOps: 2, longs: ltLongs()},

	// coreutils, util-linux and procps queries
	"pathchk": {flags: "pP", longs: ltLongs("portability")},
	"hostid":  {operands: opNone, longs: ltLongs()},
	"namei":   {flags: "xmolnvV", reads: false, longs: ltLongs("mountpoints", "modes", "owners", "long", "nosymlinks", "vertical")},
	"lsattr":  {flags: "RVadlpv", longs: ltLongs()},
	"lsmem": {flags: "JPabnrV", values: "oS", operands: opNone,
		longs: ltLongs("json", "pairs", "all", "bytes", "noheadings", "output=", "output-all", "raw", "split=", "summary?")},
	"lsirq": {flags: "JPnV", values: "os", operands: opNone, longs: ltLongs("json", "pairs", "noheadings", "output=", "sort=")},
	// (not pmap or pwdx: they show /proc/PID/maps and cwd, which the
	// secret path rules keep for a human)
	// sysstat's pidstat; -e runs a program
	"pidstat": {flags: "dHhIlRrsUuvwt", values: "pCGT", operands: opNumbers, maxOps: 2, longs: ltLongs("human", "dec=")},
	// sysctl prints variables; NAME=VALUE, -w, -p/-f (load) and --system write
	"sysctl": {flags: "aAXbeNnqV", values: "r", operands: opNames,
		longs: ltLongs("all", "binary", "ignore", "names", "values", "quiet", "pattern=", "deprecated")},
	// kill -l lists signal names
	"kill": {flags: "lL", longs: []string{"list", "table"}, operands: opNames, maxOps: 1,
		extra: func(ws []word, _ string, _ []word) string {
			if len(ws) == 0 || !anyWord(ws[:1], "-l", "-L", "--list", "--table") {
				return "kill sends a signal"
			}
			return ""
		}},

	// more comparers: no --diff-program (runs a program), no sdiff -o
	// (interactive merge into a file)
	"diff3": {flags: "AeExX3imaT", values: "L", reads: true, maxOps: 3,
		longs: ltLongs("show-all", "ed", "show-overlap", "overlap-only", "easy-only", "merge", "text", "initial-tab",
			"label=", "strip-trailing-cr")},
	"sdiff": {flags: "abBdEHilstWZ", values: "wI", reads: true, maxOps: 2,
		longs: ltLongs("text", "ignore-blank-lines", "ignore-space-change", "minimal", "ignore-tab-expansion",
			"ignore-trailing-space", "speed-large-files", "ignore-case", "ignore-matching-lines=", "left-column",
			"suppress-common-lines", "expand-tabs", "ignore-all-space", "width=", "strip-trailing-cr", "tabsize=")},
	"hd": {flags: "bcCdovx", values: "neLs", reads: true, pure: true, longs: ltLongs("length=", "skip=", "format=")},
	// shell and system helpers that only print (not findfs or blkid: as
	// root they write the blkid cache in /run/blkid)
	"dircolors": {flags: "bcp", reads: true, maxOps: 1,
		longs: ltLongs("sh", "bourne-shell", "csh", "c-shell", "print-database", "print-ls-colors")},
	"getopt":     {flags: "aqQTuhV", values: "olns", pure: true, longs: ltLongs("alternative", "longoptions=", "name=", "options=", "quiet", "quiet-output", "shell=", "test", "unquoted")},
	"ischroot":   {flags: "ftV", operands: opNone, longs: ltLongs("default-false", "default-true")},
	"manpath":    {flags: "cdgqV?", operands: opNone, longs: ltLongs("catpath", "debug", "global", "quiet", "usage")},
	"mcookie":    {flags: "vV", operands: opNone, longs: ltLongs("verbose")},
	"mountpoint": {flags: "qdxV", maxOps: 1, longs: ltLongs("quiet", "nofollow", "fs-devno", "devno")},
	"isosize":    {flags: "x", values: "d", reads: true, longs: ltLongs("sectors", "divisor=")},
	"filefrag":   {flags: "BeksvxXV", attached: "b"},
	"dumpe2fs":   {flags: "bfghixV", values: "o", maxOps: 1},
	"zdump":      {flags: "ivV", values: "ct", longs: ltLongs()},
	"prtstat":    {flags: "rV", operands: opNumbers, longs: ltLongs("raw")},
	// slabtop once; utmpdump without -o FILE, -r or -f (endless)
	"slabtop": {flags: "oV", values: "s", operands: opNone, longs: ltLongs("once", "sort="),
		extra: func(ws []word, _ string, _ []word) string {
			if !shortFlags(ws, "s")['o'] && !hasLong(ws, "once") {
				return "slabtop without --once never ends"
			}
			return ""
		}},
	"utmpdump": {flags: "V", maxOps: 1, reads: true, longs: ltLongs()},
	// fuser lists the processes using files (-k kills, -i asks)
	"fuser": {flags: "aImsuvwV46", values: "n", longs: ltLongs("all", "inode", "mount", "silent", "user", "verbose", "namespace=", "ipv4", "ipv6")},
	// mesg without y or n prints the state
	"mesg": {flags: "v", operands: opNone, longs: ltLongs("verbose")},
	// ldconfig -p prints the cache; without it ldconfig rebuilds it
	"ldconfig": {flags: "p", operands: opNone, longs: []string{"print-cache"},
		extra: func(ws []word, _ string, _ []word) string {
			if len(ws) == 0 {
				return "ldconfig rebuilds the linker cache"
			}
			return ""
		}},
	// run-parts --test and --list print what would run
	"run-parts": {flags: "", maxOps: 1, longs: ltLongs("test", "list", "reverse", "regex=", "lsbsysinit", "verbose", "report", "exit-on-error"),
		extra: func(ws []word, _ string, _ []word) string {
			if !hasLong(ws, "test", "list") {
				return "run-parts runs the programs of a directory"
			}
			return ""
		}},
	// scheduling queries: with -p and one process they print; with a
	// value they set it, and without -p they run a command
	"chrt": {flags: "pamvV", operands: opNumbers, maxOps: 1, longs: ltLongs("pid", "all-tasks", "max", "verbose"),
		extra: func(ws []word, _ string, ops []word) string {
			f := shortFlags(ws, "")
			if f['m'] || hasLong(ws, "max") {
				return ""
			}
			if !(f['p'] || hasLong(ws, "pid")) || len(ops) != 1 {
				return "chrt without -p PID runs a command or sets a policy"
			}
			return ""
		}},
	"taskset": {flags: "pacV", operands: opNumbers, maxOps: 1, longs: ltLongs("pid", "all-tasks", "cpu-list"),
		extra: func(ws []word, _ string, ops []word) string {
			if !(shortFlags(ws, "")['p'] || hasLong(ws, "pid")) || len(ops) != 1 {
				return "taskset without -p PID runs a command or sets an affinity"
			}
			return ""
		}},
	"ionice": {flags: "ptV", values: "Pu", operands: opNumbers, longs: ltLongs("pid", "pgid=", "uid=", "ignore"),
		extra: func(ws []word, _ string, ops []word) string {
			if len(ops) > 0 && !shortFlags(ws, "Pu")['p'] && !hasLong(ws, "pid") {
				return "ionice runs a command"
			}
			return ""
		}},
	"choom": {values: "p", operands: opNone, longs: ltLongs("pid="),
		extra: func(ws []word, _ string, _ []word) string {
			if len(optionValues(ws, 'p', "p", "pid")) == 0 {
				return "choom without -p runs a command"
			}
			return ""
		}},
	// prlimit prints limits; a resource option with a value sets it and
	// operands are a command to run
	"prlimit": {flags: "cdefilmnqrstuvxy", values: "po", operands: opNone,
		longs: ltLongs("pid=", "output=", "noheadings", "raw", "verbose", "core", "data", "fsize", "locks", "memlock",
			"msgqueue", "nice", "nofile", "nproc", "rss", "rtprio", "rttime", "sigpending", "stack", "as", "cpu")},
	// swapon --show / -s print the swap areas; anything else enables swap
	"swapon": {flags: "s", operands: opNone, longs: ltLongs("show?", "summary", "noheadings", "raw", "bytes"),
		extra: func(ws []word, _ string, _ []word) string {
			if !shortFlags(ws, "")['s'] && !hasLong(ws, "show", "summary") {
				return "swapon without --show enables swap areas"
			}
			return ""
		}},

	// systemd query family (-H/-M reach another host or machine;
	// systemd-analyze verify makes temporary directories, dump shows units'
	// Environment= settings)
	"systemd-analyze": {flags: "lq", verbs: []string{"", "time", "blame", "critical-chain", "plot", "dot", "unit-paths",
		"exit-status", "capability", "condition", "syscall-filter", "filesystems", "calendar", "timestamp", "timespan",
		"security", "cat-config", "unit-files", "log-level", "log-target", "service-watchdogs",
		"architectures", "has-tpm2", "pcrs", "image-policy"},
		longs: ltLongs("system", "user", "global", "no-pager", "order", "require", "fuzz=", "from-pattern=",
			"to-pattern=", "json=", "quiet", "no-legend", "threshold=", "iterations=", "base-time=", "full", "offline=", "scale-svg=", "man?"),
		extra: func(_ []word, verb string, ops []word) string {
			switch verb {
			case "log-level", "log-target", "service-watchdogs":
				if len(ops) > 0 {
					return "systemd-analyze " + verb + " with a value changes the manager"
				}
			case "cat-config":
				for _, o := range ops {
					if secretConfig(o.Text) {
						return "systemd-analyze cat-config " + o.Text + " may show keys"
					}
				}
			}
			return ""
		}},
	"systemd-detect-virt": {flags: "cvrqh", operands: opNone,
		longs: ltLongs("container", "vm", "chroot", "private-users", "cvm", "quiet", "list", "list-cvm")},
	"systemd-path":  {operands: opNames, longs: ltLongs("suffix=", "no-pager")},
	"systemd-id128": {flags: "puh", verbs: []string{"new", "machine-id", "boot-id", "invocation-id", "show", "var-partition-uuid"}, operands: opNames, longs: ltLongs("pretty", "uuid", "app-specific=", "value", "json=", "no-pager", "no-legend")},
	"systemd-cgls":  {flags: "alkuxch", operands: opNames, longs: ltLongs("all", "full", "kernel", "unit", "user-unit", "xattr", "cgroup-id", "no-pager")},
	// busctl: list and status only (introspect and tree call services,
	// which may start them; call, set-property, monitor and capture act)
	"busctl": {flags: "lj", verbs: []string{"", "list", "status"}, operands: opNames, maxOps: 1,
		longs: ltLongs("user", "system", "no-pager", "no-legend", "full", "acquired", "activatable", "unique",
			"show-machine", "augment-creds=", "json=")},
	"networkctl":  {flags: "sanl", verbs: []string{"", "list", "status", "lldp"}, operands: opNames, longs: ltLongs("stats", "all", "full", "lines=", "no-pager", "no-legend", "json=")},
	"resolvectl":  {verbs: []string{"", "status", "statistics"}, operands: opNames, longs: ltLongs("no-pager", "json=")},
	"coredumpctl": {flags: "rq", verbs: []string{"", "list"}, operands: opNames, longs: ltLongs("no-pager", "no-legend", "reverse", "quiet", "since=", "until=", "json=")},
	// systemd-cgtop is interactive and endless without --batch and -n
	"systemd-cgtop": {flags: "bcmiPkpr", values: "dn", operands: opNone, longs: ltLongs("batch", "iterations=", "delay=", "order=", "cpu?", "depth=", "recursive="),
		extra: func(ws []word, _ string, _ []word) string {
			f := shortFlags(ws, "dn")
			if !(f['b'] || hasLong(ws, "batch")) || !(f['n'] || hasLong(ws, "iterations")) {
				return "systemd-cgtop without --batch and -n never ends"
			}
			return ""
		}},

	// binutils: show the headers, symbols and code of binary files (nm
	// --plugin loads code, so nm's arguments must be static)
	"readelf": {flags: "ahlSgtesCnrudVAcDLzPIWTHv", values: "xpRU", attached: "w", reads: true, pure: true,
		longs: ltLongs("all", "file-header", "program-headers", "segments", "section-headers", "sections", "section-groups",
			"section-details", "headers", "syms", "symbols", "dyn-syms", "lto-syms", "demangle?", "notes", "relocs",
			"unwind", "dynamic", "version-info", "arch-specific", "archive-index", "use-dynamic", "hex-dump=", "string-dump=",
			"relocated-dump=", "decompress", "debug-dump?", "dwarf-depth=", "dwarf-start=", "histogram", "wide", "silent-truncation",
			"process-links", "sym-base=", "ctf=", "ctf-symbols=", "ctf-strings=", "ctf-parent=", "unicode=", "got-contents")},
	"objdump": {flags: "afpPhxdDSsgeGLtTrRviHlFCwz", values: "bmjMIU", attached: "W", reads: true, pure: true,
		longs: ltLongs("archive-headers", "file-headers", "private-headers", "private=", "headers", "section-headers",
			"all-headers", "disassemble?", "disassemble-all", "source", "source-comment?", "full-contents", "debugging",
			"debugging-tags", "stabs", "syms", "dynamic-syms", "reloc", "dynamic-reloc", "dwarf?", "target=", "architecture=",
			"section=", "disassembler-options=", "endian=", "EB", "EL", "file-start-context", "include=", "line-numbers",
			"file-offsets", "demangle?", "wide", "disassembler-color=", "disassemble-zeroes", "start-address=", "stop-address=",
			"prefix-addresses", "show-raw-insn", "no-show-raw-insn", "insn-width=", "adjust-vma=", "dwarf-depth=",
			"dwarf-start=", "dwarf-check", "ctf?", "sym-base=", "visualize-jumps?", "no-addresses", "prefix=",
			"prefix-strip=", "special-syms", "decompress", "process-links", "unicode=", "info")},
	"nm": {flags: "aABCDegjlnoPprSsuUWXhV", values: "ft", reads: true,
		longs: ltLongs("debug-syms", "print-file-name", "demangle?", "no-demangle", "dynamic", "extern-only", "format=",
			"line-numbers", "numeric-sort", "no-sort", "portability", "reverse-sort", "print-size", "print-armap",
			"size-sort", "special-syms", "synthetic", "radix=", "target=", "undefined-only", "defined-only", "with-symbol-versions",
			"without-symbol-versions", "quiet", "unicode=", "ifunc-chars=")},
	"size": {flags: "ABGdoxtV", reads: true, pure: true, longs: ltLongs("format=", "radix=", "totals", "common", "target=")},
	// file metadata: access control lists, kernel modules, firmware tables
	"getfacl": {flags: "adceEsRLPtnpvh",
		longs: ltLongs("access", "default", "omit-header", "all-effective", "no-effective", "skip-base", "recursive",
			"logical", "physical", "tabular", "absolute-names", "numeric", "one-file-system")},
	"modinfo": {flags: "adlnp0Vh", values: "Fkb",
		longs: ltLongs("author", "description", "license", "filename", "parameters", "null", "field=", "set-version=", "basedir=")},
	// dmidecode without --dump-bin FILE (writes) or -d/--from-dump (other sources)
	"dmidecode": {flags: "quhV", values: "stH", operands: opNone,
		longs: ltLongs("quiet", "string=", "type=", "handle=", "dump", "oem-string=", "no-sysfs", "no-quirks")},
	// ethtool's query options (the capital letters and -s set things)
	"ethtool": {flags: "ikacgSTPlmIh", operands: opNames, maxOps: 1,
		longs: ltLongs("driver", "show-features", "show-offload", "show-pause", "show-coalesce", "show-ring", "statistics",
			"show-time-stamping", "show-permaddr", "show-channels", "module-info", "dump-module-eeprom", "include-statistics",
			"json", "show-eee", "show-fec", "show-priv-flags", "show-rxfh", "show-rxfh-indir", "debug=")},

	// firewall and traffic-control listings (iptables and nft are always
	// warned, dangerous.go); iptables-save -f writes and -M runs a program
	"iptables-save":  {flags: "c", values: "t", operands: opNone, longs: ltLongs("counters", "table=")},
	"ip6tables-save": {flags: "c", values: "t", operands: opNone, longs: ltLongs("counters", "table=")},
	// tc and bridge (iproute2): OBJECT [show|list|ls …]
	"tc": {flags: "sdrpigjV", values: "n", verbs: []string{"qdisc", "class", "filter", "chain"}, operands: opNames,
		longs: []string{"stats", "details", "raw", "pretty", "iec", "graph", "json", "netns=", "version"}, extra: showVerb},
	"bridge": {flags: "sdjpcV", values: "n", verbs: []string{"link", "fdb", "mdb", "vlan", "vni"}, operands: opNames,
		longs: []string{"stats", "details", "json", "pretty", "compressvlans", "netns=", "version"}, extra: showVerb},
	// rfkill list (block, unblock and toggle change radios; event never ends)
	"rfkill": {flags: "nJr", values: "o", verbs: []string{"", "list"}, operands: opNames, longs: ltLongs("noheadings", "json", "raw", "output=", "output-all")},

	// file name database (updatedb, which writes it, is another program)
	"locate":  {flags: "AbceLiN0SqwPHV", values: "dlnr", pure: true, longs: ltLongs("all", "basename", "count", "existing", "follow", "ignore-case", "literal", "null", "statistics", "quiet", "wholename", "nofollow", "database=", "limit=", "regexp=", "regex")},
	"plocate": {flags: "AbceiN0wV", values: "dlnr", pure: true, longs: ltLongs("all", "basename", "count", "existing", "ignore-case", "literal", "null", "wholename", "database=", "limit=", "regexp=", "regex")},
	"mlocate": {flags: "AbceLiN0SqwPHV", values: "dlnr", pure: true, longs: ltLongs("all", "basename", "count", "existing", "follow", "ignore-case", "null", "statistics", "quiet", "wholename", "nofollow", "database=", "limit=", "regexp=", "regex")},
	// fd lists file names like find (not -x/-X, which run a program for
	// each, nor -l, which runs ls)
	"fd": {flags: "HIusiFgaLp01qhV", values: "dteESjco", operands: opFiles,
		longs: ltLongs("hidden", "no-hidden", "no-ignore", "no-ignore-vcs", "no-ignore-parent", "unrestricted", "case-sensitive",
			"ignore-case", "glob", "regex", "fixed-strings", "absolute-path", "relative-path", "follow", "full-path", "print0",
			"max-depth=", "min-depth=", "exact-depth=", "type=", "extension=", "exclude=", "size=", "changed-within=",
			"changed-before=", "newer=", "older=", "owner=", "threads=", "max-results=", "quiet", "show-errors", "color=",
			"ignore-file=", "path-separator=", "search-path=", "strip-cwd-prefix?", "one-file-system", "prune", "and=", "format=")},
	// ssh-keygen -l (fingerprint) and -F (find a host in known_hosts);
	// key files are judged by the secret path rules
	"ssh-keygen": {flags: "lvq", values: "fEF", operands: opNone,
		extra: func(ws []word, _ string, _ []word) string {
			f := shortFlags(ws, "fEF")
			if !f['l'] && !f['F'] {
				return "ssh-keygen without -l or -F makes or changes keys"
			}
			return ""
		}},
	// atq lists queued jobs
	"atq": {flags: "V", values: "q", operands: opNone},
	// security and hardware status
	"getenforce": {operands: opNone},
	"sestatus":   {flags: "vb", operands: opNone},
	"aa-status": {flags: "v", operands: opNone,
		longs: ltLongs("enabled", "profiled", "enforced", "complaining", "verbose", "json", "pretty-json")},
	"apparmor_status": {flags: "v", operands: opNone,
		longs: ltLongs("enabled", "profiled", "enforced", "complaining", "verbose", "json", "pretty-json")},
	// sensors without -s (runs the configuration's set statements) or -c
	"sensors": {flags: "fAujv", operands: opNames, longs: ltLongs("fahrenheit", "no-adapter", "bus-list", "json")},
	// upower without --monitor (never ends)
	"upower": {flags: "edwv", values: "i", operands: opNone, longs: ltLongs("enumerate", "dump", "show-info=", "wakeups")},
	"acpi":   {flags: "bitacVsfkph", operands: opNone, longs: ltLongs("battery", "thermal", "cooling", "ac-adapter", "everything", "show-empty", "fahrenheit", "kelvin", "proc", "details")},
	// numactl --hardware and --show print; anything else runs a command
	"numactl": {flags: "Hs", operands: opNone, longs: ltLongs("hardware", "show"),
		extra: func(ws []word, _ string, _ []word) string {
			if len(ws) == 0 {
				return "numactl without --hardware or --show"
			}
			return ""
		}},
	// NetworkManager's client: status and listings; -s shows secrets,
	// -a asks for passwords, connectivity check reaches the network
	"nmcli": {flags: "tpo", values: "mcfeg", operands: opNames,
		longs: ltLongs("terse", "pretty", "overview", "mode=", "colors=", "fields=", "escape=", "get-values=", "active", "order="),
		extra: nmcliRead},
	// ufw status, show and app list/info
	"ufw": {verbs: []string{"status", "show", "app"}, operands: opNames, longs: ltLongs(),
		extra: func(_ []word, verb string, ops []word) string {
			switch {
			case verb == "status" && (len(ops) == 0 || len(ops) == 1 && (ops[0].Text == "verbose" || ops[0].Text == "numbered")):
				return ""
			case verb == "show" && len(ops) == 1:
				switch ops[0].Text {
				case "raw", "builtins", "before-rules", "user-rules", "after-rules", "logging-rules", "listening", "added":
					return ""
				}
			case verb == "app" && len(ops) > 0 && (ops[0].Text == "list" && len(ops) == 1 || ops[0].Text == "info" && len(ops) == 2):
				return ""
			}
			return "ufw " + verb + " is not known to be read-only"
		}},

	// package query tools
	"dpkg-query": {flags: "lWLsSph?", values: "f",
		longs: ltLongs("list", "show", "listfiles", "status", "search", "print-avail", "showformat=", "no-pager",
			"control-path", "control-list", "control-show", "load-avail")},
	"apt-cache": {flags: "qifanh", verbs: []string{"policy", "show", "showpkg", "showsrc", "depends", "rdepends",
		"search", "pkgnames", "madison", "stats", "dump", "dumpavail", "unmet", "dotty", "xvcg"}, operands: opNames,
		longs: ltLongs("quiet", "important", "full", "all-versions", "no-all-versions", "names-only", "all-names",
			"recurse", "installed", "no-generate", "no-pre-depends", "no-depends", "no-recommends", "no-suggests",
			"no-conflicts", "no-breaks", "no-replaces", "no-enhances", "implicit", "no-implicit")},
	"apt": {flags: "aq", verbs: []string{"list", "show", "search", "policy", "depends", "rdepends", "showsrc"}, operands: opNames,
		longs: ltLongs("installed", "upgradable", "upgradeable", "all-versions", "manual-installed", "full", "names-only", "quiet")},
	// rpm queries: an option cluster with q, no scripts (-V runs
	// %verifyscript), no macro evaluation (-E, -D, --eval), no --pipe
	"rpm": {flags: "qaflipcdsRvgL", operands: opFiles,
		extra: func(ws []word, _ string, _ []word) string {
			if !shortFlags(ws, "")['q'] && !hasLong(ws, "query") {
				return "rpm without -q is not a query"
			}
			return ""
		},
		longs: ltLongs("query", "all", "file", "list", "info", "configfiles", "docfiles", "state", "requires",
			"provides", "conflicts", "obsoletes", "changelog", "scripts", "triggers", "whatprovides", "whatrequires",
			"whatrecommends", "whatsuggests", "qf=", "queryformat=", "last", "dump", "package", "licensefiles", "filesbypkg", "nosignature", "nodigest")},
	"apt-mark": {flags: "q", verbs: []string{"showauto", "showmanual", "showhold", "showinstall", "showremove", "showpurge"}, operands: opNames, longs: ltLongs("quiet")},
	"gem": {flags: "ladi", verbs: []string{"", "list"}, operands: opNames,
		longs: ltLongs("local", "details", "no-details", "installed", "versions", "no-versions", "all", "exact", "prerelease", "quiet", "verbose")},
	"snap":    {verbs: []string{"", "list", "version", "services", "changes", "connections"}, operands: opNames, longs: ltLongs("all", "color=", "unicode=")},
	"flatpak": {flags: "ad", verbs: []string{"", "list", "info", "history"}, operands: opNames, longs: ltLongs("user", "system", "app", "runtime", "all", "columns=", "show-details", "show-ref", "show-commit", "show-size", "show-metadata", "show-permissions", "show-location", "show-extensions")},
	// pip show, freeze and check read installed metadata; pip list
	// checks PyPI for a newer pip unless told not to (and -o/-u query
	// the index)
	"pip": {flags: "lveqVf", verbs: []string{"", "show", "freeze", "list", "check"}, operands: opNames,
		longs: ltLongs("local", "user", "format=", "not-required", "exclude-editable", "include-editable", "editable",
			"verbose", "quiet", "files", "all", "exclude=", "disable-pip-version-check", "no-index", "isolated", "no-color", "no-input", "no-python-version-warning"),
		extra: pipExtra},
}

// manPager: man -P runs its value as a shell command; only cat is known.
func manPager(ws []word, _ string, _ []word) string {
	for _, v := range optionValues(ws, 'P', "sSLeERP", "pager") {
		if v != "cat" {
			return "man -P runs " + v
		}
	}
	return ""
}

// pipExtra: pip list asks PyPI whether pip is outdated unless
// --disable-pip-version-check or --no-index is given.
func pipExtra(ws []word, verb string, _ []word) string {
	if shortFlags(ws, "")['f'] && verb != "show" {
		return "pip -f gives " + verb + " a place to find packages"
	}
	if verb == "list" && !hasLong(ws, "disable-pip-version-check", "no-index") {
		return "pip list may ask PyPI for a newer pip (add --disable-pip-version-check)"
	}
	return ""
}

// nmcliRead accepts nmcli's overview and its status and show commands,
// which nmcli lets users abbreviate ("nmcli d st", "nmcli c s").
func nmcliRead(_ []word, _ string, ops []word) string {
	pick := func(w string, names ...string) string {
		found := ""
		for _, n := range names {
			if strings.HasPrefix(n, w) {
				if found != "" {
					return ""
				}
				found = n
			}
		}
		return found
	}
	if len(ops) == 0 {
		return ""
	}
	rest := ops[1:]
	cmd := ""
	if len(rest) > 0 {
		cmd = rest[0].Text
		rest = rest[1:]
	}
	switch pick(ops[0].Text, "general", "networking", "radio", "connection", "device", "agent", "monitor", "help") {
	case "general":
		if c := pick(cmd, "status", "permissions", "hostname", "logging", "reload"); cmd == "" || (c == "status" || c == "permissions") && len(rest) == 0 {
			return ""
		}
	case "networking":
		if cmd == "" {
			return ""
		}
	case "radio":
		if cmd == "" || pick(cmd, "all", "wifi", "wwan") != "" && len(rest) == 0 {
			return ""
		}
	case "connection":
		if cmd == "" || pick(cmd, "show", "up", "down", "add", "modify", "clone", "edit", "delete", "monitor", "reload", "load", "import", "export", "migrate") == "show" {
			return ""
		}
	case "device":
		if c := pick(cmd, "status", "show", "set", "connect", "reapply", "modify", "disconnect", "delete", "monitor", "wifi", "lldp", "up", "down"); cmd == "" || (c == "status" || c == "show") && len(rest) <= 1 {
			return ""
		}
	}
	return "nmcli " + ops[0].Text + " " + cmd + " is not known to be read-only"
}

// showVerb: the object's command, if any, is show, list or ls.
func showVerb(_ []word, verb string, ops []word) string {
	if len(ops) == 0 {
		return ""
	}
	switch ops[0].Text {
	case "show", "list", "ls", "lst", "sh":
		return ""
	}
	return verb + " " + ops[0].Text + " is not known to be read-only"
}

// secretConfig reports configuration names that may hold keys
// (WireGuard keys in systemd-networkd's .netdev files).
func secretConfig(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "network") || strings.Contains(l, "netdev") || strings.Contains(l, "cred") ||
		strings.Contains(l, "key") || strings.Contains(l, "secret") || strings.Contains(l, "upload")
}

func init() {
	longTail["pip3"] = longTail["pip"]
	for name, s := range longTail {
		if _, ok := builtinSafe[name]; ok {
			continue
		}
		builtinSafe[name] = s.safe(name)
	}
}

// Programs whose version or help option, given as the only argument,
// prints and exits before the program reads a project file, runs other
// code or talks to the network, are listed with those options in the
// command base (cmdbase.Prog.Version). Programs that may (cargo and rustc
// through rustup's toolchain files, yarn and pnpm through the project's
// package-manager settings, mvn through .mvn/jvm.config, terraform, gh
// and npm through update checks, java's virtual machine and top making
// their state directories) have none.
func init() {
	for _, name := range cmdbase.UnixNames() {
		opts := cmdbase.Unix(name).Version
		if len(opts) == 0 {
			continue
		}
		sole := func(ws []word) bool {
			return len(ws) == 1 && ws[0].Static() && anyWord(ws, opts...)
		}
		spec, ok := builtinSafe[name]
		if !ok {
			builtinSafe[name] = safeCmd{check: func(ws []word) string {
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
		builtinSafe[name] = spec
	}
}
