package cmdbase

import "strings"

// find's primaries that do more than test a file, by what they do
// (find(1)): the one list its read-only grammar, its dangerous form, the
// files it writes and the readers of its output (find -print0 | xargs -0,
// $(find …)) ask.

// findDoes is what one of find's primaries does.
type findDoes uint16

const (
	// findWrites: -fprint FILE and friends write the file named next.
	findWrites findDoes = 1 << iota
	// findDeletes: -delete deletes what it finds.
	findDeletes
	// findRuns: -exec, -execdir, -ok, -okdir run a command on it.
	findRuns
	// findPrintsNUL: -print0 prints names ended by NUL.
	findPrintsNUL
	// findPrints: -print prints names ended by newlines.
	findPrints
	// findFormats: -printf, -ls print names in another form.
	findFormats
	// findReadsRoots: -files0-from reads the starting points from a file.
	findReadsRoots
	// findFollows: -L, -H, -follow follow symbolic links.
	findFollows
)

var findPrimaries = map[string]findDoes{
	"-fprint": findWrites, "-fprint0": findWrites, "-fprintf": findWrites, "-fls": findWrites,
	"-delete": findDeletes,
	"-exec":   findRuns, "-execdir": findRuns, "-ok": findRuns, "-okdir": findRuns,
	"-print0": findPrintsNUL, "-print": findPrints, "-printf": findFormats, "-ls": findFormats,
	"-files0-from": findReadsRoots, "-L": findFollows, "-H": findFollows, "-follow": findFollows,
}

// FindCommand is what a find command line does beyond testing files.
type FindCommand struct {
	does findDoes
	// Writes are the files its -fprint primaries write, with the first
	// such primary (Writer).
	Writes []Word
	Writer string
	// Dynamic: a word is known only at run time, which may be any
	// primary.
	Dynamic bool
	// Roots are its starting points ("." when none is given).
	Roots []Word
}

// ReadFind reads find's arguments.
func ReadFind(args []Word) FindCommand {
	var f FindCommand
	for i, w := range args {
		if !w.Static() {
			f.Dynamic = true
			continue
		}
		d := findPrimaries[w.Text]
		f.does |= d
		if d == findWrites {
			if f.Writer == "" {
				f.Writer = w.Text
			}
			if i+1 < len(args) {
				f.Writes = append(f.Writes, args[i+1])
			}
		}
	}
	f.Roots = findRoots(args)
	return f
}

// Deletes, Runs, Follows… report what the command does.
func (f FindCommand) Deletes() bool    { return f.does&findDeletes != 0 }
func (f FindCommand) Runs() bool       { return f.does&findRuns != 0 }
func (f FindCommand) Follows() bool    { return f.does&findFollows != 0 }
func (f FindCommand) ReadsRoots() bool { return f.does&findReadsRoots != 0 }

// PrintsPlainNames reports a find that only prints the names it finds
// with -print (or by default), one a line: it writes, deletes, runs,
// formats, follows and reads nothing else, and every word is known.
func (f FindCommand) PrintsPlainNames() bool {
	return !f.Dynamic && f.does&^findPrints == 0
}

// PrintsNULNames reports a find whose output is only the names it finds,
// each ended by NUL (-print0): nothing else is printed, written or run.
func (f FindCommand) PrintsNULNames() bool {
	return !f.Dynamic && f.does&findPrintsNUL != 0 && f.does&^(findPrintsNUL|findDeletes|findFollows) == 0
}

// findRoots are the starting points of a find command ("." when none):
// the words before the first test, after the options -H, -L, -P, -D
// and -O; a -files0-from reads them from a file (a dynamic word stands
// for them).
func findRoots(args []Word) []Word {
	var roots []Word
	for _, w := range args {
		if w.Text == "-files0-from" {
			return []Word{{Text: "-files0-from", Raw: "-files0-from", Dynamic: true}}
		}
		t := w.Text
		if w.Static() && (strings.HasPrefix(t, "-") && t != "-" || t == "(" || t == "!" || t == ")") {
			if t == "-H" || t == "-L" || t == "-P" || strings.HasPrefix(t, "-O") || t == "-D" {
				continue
			}
			break
		}
		roots = append(roots, w)
	}
	if len(roots) == 0 {
		roots = []Word{{Text: ".", Raw: "."}}
	}
	return roots
}

// findCheck: find's primaries that write or delete files.
func findCheck(ws []Word) string {
	f := ReadFind(ws)
	switch {
	case f.Deletes():
		return "find -delete is not read-only"
	case f.Writer != "":
		return "find " + f.Writer + " is not read-only"
	}
	return ""
}

// findDanger: find -delete deletes every file it finds.
func findDanger(ws []Word) string {
	if ReadFind(ws).Deletes() {
		return "find -delete"
	}
	return ""
}
