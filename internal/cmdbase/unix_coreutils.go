package cmdbase

import (
	"strconv"
	"strings"
)

// Files and processes: coreutils, findutils, util-linux and their
// cousins.

// gnuInfo are the options every GNU tool answers, alone, by printing and
// exiting before it touches a file.
var gnuInfo = []string{"--help", "--version"}

var _ = registerUnix(Coreutils, func() []Prog {
	return []Prog{
		{Name: "rm", Is: FileOperands | Checked | Removes | Alarm, Shown: &Shown{Cat: CatDelete}, Forms: []Form{
			{Short: "rR", Long: []string{"recursive"}, Why: "-r: recursive delete"},
			{Long: []string{"no-preserve-root"}, Why: "--no-preserve-root"}}},
		{Name: "rmdir", Is: FileOperands | Removes | Alarm, Danger: "removes directories"},
		{Name: "unlink", Is: FileOperands | Removes | Alarm},
		{Name: "shred", Is: FileOperands | Removes | Alarm, Danger: "destroys file contents"},
		{Name: "srm", Is: FileOperands | Removes},
		{Name: "trash", Aliases: []string{"trash-put"}, Is: FileOperands | Removes},
		{Name: "mv", Is: FileOperands | Checked | Removes | Alarm, Values: "tS", Dangers: mvDanger, Targets: copyTargets("tS", false),
			Shown: &Shown{Cat: CatMove, Values: "tS", Longs: []string{"target-directory", "suffix"}, Operands: 2, PlainOpts: plainCopy}},
		{Name: "cp", Version: gnuInfo, Is: FileOperands | Checked, Values: "tS", Targets: copyTargets("tS", false),
			Shown: &Shown{Cat: CatCopy, Values: "tS", Longs: []string{"target-directory", "suffix"}, Operands: 2, PlainOpts: plainCopy}},
		{Name: "ln", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Values: "tS", Targets: copyTargets("tS", true)},
		{Name: "install", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Values: "tSmogCZ", Targets: copyTargets("tSmogCZ", false)},
		{Name: "touch", Version: gnuInfo, Is: FileOperands | Checked, Targets: wholeTargets("dtr")},
		{Name: "split", Version: gnuInfo, Writes: splitWrites, Examples: Examples{Allow: []string{"split --version"},
			Warn: []string{"split -l 100 big.txt part_", "split -b 1 x /etc/cron.d/x", "split big.txt"}}},
		{Name: "csplit", Version: gnuInfo, Writes: csplitWrites, Examples: Examples{Allow: []string{"csplit --version"},
			Warn: []string{"csplit -f /etc/cron.d/x f 1", "csplit f 1", "csplit --prefix=part f 1"}}},
		{Name: "mkdir", Version: gnuInfo, Is: FileOperands, Shown: &Shown{Cat: CatMkdir, Values: "m", Longs: []string{"mode"}}},
		{Name: "chmod", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Dangers: chmodDanger, Forms: []Form{{Short: "R", Long: []string{"recursive"}, Why: "-R: recursive permission change"}}},
		{Name: "chown", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Forms: []Form{{Short: "R", Long: []string{"recursive"}, Why: "-R: recursive ownership change"}}},
		{Name: "chgrp", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Forms: []Form{{Short: "R", Long: []string{"recursive"}, Why: "-R: recursive ownership change"}}},
		{Name: "truncate", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Targets: wholeTargets("sr")},
		{Name: "tee", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Targets: wholeTargets(""), Writes: teeWrites},
		{Name: "cat", Is: FileOperands | Echoes, Shown: shownRead}, {Name: "tac", Is: FileOperands}, {Name: "nl", Is: FileOperands},
		{Name: "head", Is: FileOperands, Shown: shownRead}, {Name: "tail", Is: FileOperands, Shown: shownRead},
		{Name: "less", Is: FileOperands}, {Name: "more", Is: FileOperands},
		// names, sizes and counts only, never content
		{Name: "ls", Is: Metadata | ListsNames}, {Name: "dir", Is: Metadata}, {Name: "vdir", Is: Metadata},
		{Name: "du", Is: Metadata}, {Name: "stat", Is: Metadata}, {Name: "wc", Is: Metadata},
		{Name: "file", Is: Metadata},
		{Name: "tree", Values: "oLPIH", Outputs: []Output{{Short: 'o', Long: "output"}}},
		{Name: "dd", Is: Alarm, Danger: "writes raw disk data"},
		{Name: "del", Danger: "deletes files"},
		{Name: "chattr", Danger: "changes file attributes"},
		// -exec and -execdir run a command of their own, judged as a leaf
		{Name: "find", Is: NoRule | Checked | Finds, Dangers: findDanger, Writes: findWritesFiles,
			Examples: Examples{
				Allow: []string{"find . -name x", "find . -name '*.go'", "find src -type f -newer go.mod -print0",
					"find . -maxdepth 2 -iname '*.md' -printf '%p\\n'", "find . -exec grep -l TODO {} +", "find . -name '*.go' -exec wc -l {} \\;"},
				Ask: []string{"find . -exec sh -c 'make' \\;"},
				Warn: []string{"find . -delete", "find . -name '*.o' -delete", "find . -exec rm {} \\;", "find . -execdir rm -rf {} +",
					"find . -ok rm {} \\;", "find . -fprint out.txt", "find . -fls list.txt", "find ~/.ssh -name id_rsa -exec cat {} \\;"},
			}},
		{Name: "xargs", Is: Wrapper | Harmless | Alarm | FeedsArgs, Values: "adEILnPs", ReadsFrom: []Output{{Short: 'a', Long: "arg-file"}}},
		{Name: "env", Is: Wrapper | Harmless | ShowsVars},
		{Name: "timeout", Is: Wrapper | Harmless},
		{Name: "nice", Is: Wrapper | Harmless},
		{Name: "nohup", Is: Wrapper | Harmless},
		{Name: "stdbuf", Is: Wrapper | Harmless},
		{Name: "ionice", Is: Wrapper | Harmless},
		{Name: "setsid", Is: Wrapper | Harmless},
		{Name: "watch", Is: Wrapper | Harmless},
		{Name: "flock", Is: Wrapper | RunsArgs},
		{Name: "chroot", Is: Wrapper | RunsArgs | Relay},
		{Name: "nsenter", Is: Wrapper | RunsArgs | Relay},
		{Name: "unshare", Is: Wrapper | RunsArgs},
		{Name: "script", Is: Wrapper | RunsArgs | Relay, Writes: scriptWrites},
		{Name: "kill", Is: Checked | Alarm, Dangers: killDanger},
		{Name: "killall5", Danger: "kills every process"},
		{Name: "pkill", Is: Alarm}, {Name: "killall", Is: Alarm},
		{Name: "busybox", Is: NoRule | Relay},
		{Name: "parallel", Is: Wrapper | RunsArgs},
		{Name: "sg", Is: RunsArgs},
	}
})

// shownRead: cat, head and tail of one file are shown as a read of it.
var shownRead = &Shown{Cat: CatRead, Values: "nc", Operands: 1}

// plainCopy are the options after which cp and mv are still shown as
// "A → B".
var plainCopy = []string{"-v", "-i", "-n", "-f", "--verbose", "--interactive", "--no-clobber", "--force"}

// copyTargets reads a copying program's operands (cp, mv, install, ln,
// rsync; values are the letters of its options taking a value): the
// destination (the last operand, or, for ln given one, "."), the
// directories of -t, the sources.
func copyTargets(values string, lnForm bool) func([]Word) Targets {
	return func(ws []Word) Targets {
		pos := Positionals(ws, values, "target-directory", "suffix", "mode", "owner", "group", "rsh", "filter", "temp-dir")
		f := ShortFlags(ws, values)
		t := Targets{NoTarget: f['T'] || HasLong(ws, "no-target-directory"),
			Recursive: f['r'] || f['R'] || f['a'] || HasLong(ws, "recursive", "archive"), Sources: pos}
		for _, d := range OptionValues(ws, 't', values, "target-directory") {
			t.Dirs = append(t.Dirs, Word{Text: d, Raw: d})
		}
		switch {
		case len(t.Dirs) > 0 || len(pos) == 0:
		case len(pos) > 1:
			t.Dests, t.Sources = pos[len(pos)-1:], pos[:len(pos)-1]
		case lnForm:
			t.Dests = []Word{{Text: ".", Raw: "."}} // ln x makes ./x
		}
		return t
	}
}

// wholeTargets: every operand is a file it writes (tee, truncate).
func wholeTargets(values string) func([]Word) Targets {
	return func(ws []Word) Targets { return Targets{Dests: Positionals(ws, values), Whole: true} }
}

// teeWrites: tee writes the files it names.
func teeWrites(ws []Word) (string, []Word) {
	if pos := Positionals(ws, ""); len(pos) > 0 {
		return "tee writes " + pos[0].Raw, pos
	}
	return "", nil
}

// findWritesFiles: find's -fprint primaries write files.
func findWritesFiles(ws []Word) (string, []Word) {
	if f := ReadFind(ws); f.Writer != "" {
		return "find " + f.Writer + " writes a file", f.Writes[:min(1, len(f.Writes))]
	}
	return "", nil
}

// mvDanger: mv to /dev/null destroys the file.
func mvDanger(ws []Word) string {
	pos := Positionals(ws, "tS", "target-directory", "suffix", "mode", "owner", "group")
	if len(pos) > 0 && AnyWord(pos[len(pos)-1:], "/dev/null") {
		return "mv to /dev/null destroys the file"
	}
	return ""
}

// chmodDanger: world-writable or setuid modes.
func chmodDanger(ws []Word) string {
	if pos := Positionals(ws, ""); len(pos) > 0 && worldWritableMode(pos[0].Text) {
		return "chmod " + pos[0].Text + ": world-writable or setuid permissions"
	}
	for _, w := range ws {
		if strings.HasPrefix(w.Text, "-") && worldWritableMode(w.Text) {
			return "chmod " + w.Text + ": world-writable permissions"
		}
	}
	return ""
}

func worldWritableMode(m string) bool {
	m = strings.TrimPrefix(m, "-")
	if m == "" {
		return false
	}
	if n, err := strconv.ParseUint(m, 8, 32); err == nil {
		return n&0o002 != 0 || n&0o4000 != 0 || n&0o2000 != 0
	}
	for _, clause := range strings.Split(m, ",") {
		i := strings.IndexAny(clause, "+=")
		if i < 0 {
			continue
		}
		whoPart, perms := clause[:i], clause[i+1:]
		if strings.ContainsAny(perms, "s") && !strings.Contains(clause, "-") {
			return true
		}
		if (whoPart == "" || strings.ContainsAny(whoPart, "ao")) && strings.Contains(perms, "w") {
			if whoPart == "" {
				continue // umask applies
			}
			return true
		}
	}
	return false
}

// killDanger: kill -1 and kill 1 target every process or init.
func killDanger(ws []Word) string {
	for _, w := range ws {
		if w.Text == "-1" && len(Positionals(ws, "sn")) == 0 || w.Text == "1" {
			return "kill: targets every process or init"
		}
	}
	if AnyWord(ws, "--", "-9", "-KILL", "-s") {
		for _, p := range Positionals(ws, "sn") {
			if p.Text == "-1" || p.Text == "1" {
				return "kill: targets every process or init"
			}
		}
	}
	return ""
}
