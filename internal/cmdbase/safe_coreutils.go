package cmdbase

import "strings"

// Files and processes: coreutils, findutils, util-linux and their cousins
// (cmdbase/unix_coreutils.go). Readers show their file operands (the
// secret-path rules judge them); listing and identity tools only print.
var _ = registerSafe(Coreutils, safeCoreutils)

// safeCoreutils is built on first use (safeTables).
var safeCoreutils = func() map[string]safeCmd {
	return map[string]safeCmd{
		"ls": plain, "dir": plain, "vdir": plain, "stat": plain, "du": plain, "df": plain, "wc": plain,
		"basename": plain, "dirname": plain, "realpath": plain, "readlink": plain, "which": plain, "whereis": plain,
		"whoami": plain, "id": plain, "groups": plain, "logname": plain, "users": plain, "tty": plain,
		"uname": plain, "arch": plain, "nproc": plain, "getconf": plain,
		"seq": plain, "numfmt": plain, "expr": plain, "factor": plain, "cal": plain,
		"md5sum": plain, "sha1sum": plain, "sha224sum": plain, "sha256sum": plain, "sha384sum": plain,
		"sha512sum": plain, "cksum": plain, "b2sum": plain,
		"cat": reader, "tac": reader, "nl": reader,
		// bounded reads of endless devices are fine: head -c 16 /dev/urandom
		"head": {reads: true, dynOK: true, valueShort: "nc"},
		"tail": {reads: true, dynOK: true, valueShort: "ncs", endless: true},
		// pagers print when their output is not a terminal; +cmd and
		// options that log or load key bindings are not read-only
		"less": {reads: true, dynOK: true, valueShort: "bhjkoOpPtTxyzD#", check: lessCheck},
		"more": {reads: true, dynOK: true, check: moreCheck},
		"most": {reads: true, dynOK: true},
		"find": {recursive: func([]word) bool { return false }, check: findCheck},
		"file": {dynOK: true, check: fileCheck},
		// tree reads option letters one by one, not as getopt clusters: -Ho
		// is -H and -o
		"tree": {valueShort: "oLPIH", check: treeCheck},
		"date": {valueShort: "dfr", check: dateCheck},
		// coreutils, util-linux and procps queries
		"pathchk": {args: &argSpec{flags: "pP", longs: ltLongs("portability")}},
		"hostid":  {args: &argSpec{operands: opNone, longs: ltLongs()}},
		"namei":   {args: &argSpec{flags: "xmolnvV", reads: false, longs: ltLongs("mountpoints", "modes", "owners", "long", "nosymlinks", "vertical")}},
		"lsattr":  {args: &argSpec{flags: "RVadlpv", longs: ltLongs()}},
		"sum":     {args: &argSpec{flags: "rs", reads: true, pure: true, longs: ltLongs("sysv")}},
		// helpers that only print (not findfs or blkid: as
		// root they write the blkid cache in /run/blkid)
		"dircolors": {args: &argSpec{flags: "bcp", reads: true, maxOps: 1,
			longs: ltLongs("sh", "bourne-shell", "csh", "c-shell", "print-database", "print-ls-colors")}},
		"mcookie": {args: &argSpec{flags: "vV", operands: opNone, longs: ltLongs("verbose")}},
		// file metadata: access control lists
		"getfacl": {args: &argSpec{flags: "adceEsRLPtnpvh",
			longs: ltLongs("access", "default", "omit-header", "all-effective", "no-effective", "skip-base", "recursive",
				"logical", "physical", "tabular", "absolute-names", "numeric", "one-file-system")}},
		// kill -l lists signal names
		"kill": {args: &argSpec{flags: "lL", longs: []string{"list", "table"}, operands: opNames, maxOps: 1,
			extra: killExtra}},
		// pinky without -l (which shows users' ~/.plan and ~/.project)
		"pinky": {args: &argSpec{flags: "sbhpwfiq", operands: opNames, longs: ltLongs("lookup")}},
		// uuidgen: random or name-based (not -t: time-based ids keep a clock
		// file in /var/lib/libuuid)
		"uuidgen": {args: &argSpec{flags: "rxmsV", values: "nNC", operands: opNone,
			longs: ltLongs("random", "hex", "md5", "sha1", "namespace=", "name=", "count=")}},
		// terminal queries: clear prints the clearing sequence; infocmp and
		// toe print terminal descriptions
		"clear":   {args: &argSpec{flags: "Vx", values: "T", operands: opNone}},
		"infocmp": {args: &argSpec{flags: "1aCcdEeFfGgIiKLlnpqrTtUuVWx", values: "ARvw", operands: opNames}},
		"toe":     {args: &argSpec{flags: "ahsuUV", operands: opNone}},
		// yes prints its operands without end: allowed where a pipe's reader
		// stops it (yes | head)
		"yes": {args: &argSpec{pure: true, infinite: true, longs: ltLongs()}},
		"ionice": {args: &argSpec{flags: "ptV", values: "Pu", operands: opNumbers, longs: ltLongs("pid", "pgid=", "uid=", "ignore"),
			extra: ioniceExtra}},
	}
}

func fileCheck(ws []word) string {
	return first(ForbidShort("C", "mfFeP", ws), ForbidLong(ws, "compile"))
}

func treeCheck(ws []word) string {
	return first(ForbidShort("oR", "", ws), ForbidLong(ws, "output"))
}

func killExtra(ws []word, _ string, _ []word) string {
	if len(ws) == 0 || !AnyWord(ws[:1], "-l", "-L", "--list", "--table") {
		return "kill sends a signal"
	}
	return ""
}

func ioniceExtra(ws []word, _ string, ops []word) string {
	if len(ops) > 0 && !ShortFlags(ws, "Pu")['p'] && !HasLong(ws, "pid") {
		return "ionice runs a command"
	}
	return ""
}

func lessCheck(ws []word) string {
	for _, w := range ws {
		if strings.HasPrefix(w.Text, "+") {
			return "less " + w.Text + " runs a less command"
		}
	}
	// -t TAG (--tag) opens the file a tags file names (./tags, the
	// project's own, or -T's), which may be a secret
	return first(ForbidShort("oOkt", "bhjpPtTxyzD#", ws), ForbidLong(ws, "log-file", "LOG-FILE", "lesskey-file", "lesskey-src", "lesskey-content", "tag"))
}

func moreCheck(ws []word) string {
	for _, w := range ws {
		if strings.HasPrefix(w.Text, "+") && !digits(w.Text[1:]) && !strings.HasPrefix(w.Text, "+/") {
			return "more " + w.Text + " is not known"
		}
	}
	return ""
}

// dateCheck: date -s and an operand that is not +FORMAT set the clock.
func dateCheck(ws []word) string {
	if r := first(ForbidShort("s", "dfr", ws), ForbidLong(ws, "set")); r != "" {
		return r
	}
	for _, p := range Positionals(ws, "dfrI", "date", "file", "reference") {
		if !strings.HasPrefix(p.Text, "+") {
			return "date with an argument that sets the clock"
		}
	}
	return ""
}
