package cmdbase

import (
	"path"
	"strings"
)

// git. Its read-only subcommands and options, the settings that make a
// read run a program and the forms that destroy work are judged by
// the safe list (safe_git.go) and the policy's git facts (policy/gitfacts.go), which asks git itself
// about a repository's configuration.
var _ = registerUnix(Git, func() []Prog {
	return []Prog{
		{Name: "git", Is: Subcommands | Checked, Outputs: []Output{{Long: "output"}},
			// the options before the subcommand that take the next word as
			// their value (git(1)); --exec-path and --list-cmds take theirs
			// only after "="
			Globals: []string{"-C", "-c", "--config-env", "--git-dir", "--work-tree", "--namespace",
				"--super-prefix", "--attr-source"},
			Ends:    []string{"--exec-path", "--html-path", "--man-path", "--info-path", "--version", "-v"},
			Dangers: gitDanger, Writes: gitWrites, RunsConfigured: gitRunsConfigured, RuleGlobals: []string{"-C", "-c"},
			Subs: []ProgSub{
				{Name: "config", Runs: true}, {Name: "rebase", Runs: true}, {Name: "bisect", Runs: true},
				{Name: "submodule", Runs: true}, {Name: "difftool", Runs: true}, {Name: "mergetool", Runs: true},
				{Name: "filter-branch", Runs: true}, {Name: "filter-repo", Runs: true}, {Name: "daemon", Runs: true},
				{Name: "instaweb", Runs: true}, {Name: "credential", Runs: true},
			},
			Examples: Examples{
				Allow: []string{"git status", "git log --oneline -5", "git diff --stat", "git show --stat HEAD", "git branch -a",
					"git tag -l", "git remote", "git config user.name", "git clean -n", "git stash list", "git blame go.mod",
					"git rev-parse HEAD", "git -C src ls-files", "git -C /tmp log --oneline", "git --no-pager log -1"},
				Ask: []string{"git commit -m x", "git push", "git fetch", "git -c core.pager=sh log", "git --exec-path=/tmp log",
					"git tag v1", "git remote add o x", "git config --list", "git config user.name x", "git config remote.origin.url",
					"git clean -n -f --no-dry-run", "git stash", "git diff --ext-diff", "git log --format=%G?", "git grep -O x",
					"git hash-object -w go.mod", "git var -l", "git config core.pager x", "git --namespace x log"},
				Warn: []string{"git init", "git init proj", "git -C /etc init", "git clone https://x/y.git", "git clone https://x/y ~/.ssh", "git reset --hard", "git branch -D x", "git clean -fd", "git reflog expire --all",
					"git log --output=x", "git diff --out x",
					// every global option is read by the one reader (its value skipped)
					"git --namespace x reset --hard", "git --config-env a=B push --force", "git --super-prefix x/ clean -fd",
					"git --attr-source HEAD checkout -f", "git -c a=b -C . --git-dir .git branch -D x"},
			}},
	}
})

// GitSubcommand reads a git command line (the words after "git"): its
// global options, the subcommand ("" when there is none) and the words
// after it.
func GitSubcommand(args []Word) (globals []Global, sub string, rest []Word) {
	globals, at := Unix("git").Subcommand(args)
	if at >= len(args) {
		return globals, "", nil
	}
	return globals, args[at].Text, args[at+1:]
}

// gitDanger finds the git commands that destroy history or work.
func gitDanger(ws []Word) string {
	_, sub, rest := GitSubcommand(ws)
	switch sub {
	case "reset":
		return "git reset can discard work"
	case "clean":
		f := ShortFlags(rest, "e")
		if !f['n'] && !HasLong(rest, "dry-run") {
			return "git clean deletes untracked files"
		}
	case "push":
		f := ShortFlags(rest, "o")
		if f['f'] || f['d'] || HasLong(rest, "force", "force-with-lease", "force-if-includes", "mirror", "delete", "prune") {
			return "git push --force/--delete rewrites the remote"
		}
		for _, p := range Positionals(rest, "o", "repo", "receive-pack", "exec", "push-option") {
			if strings.HasPrefix(p.Text, "+") || strings.HasPrefix(p.Text, ":") {
				return "git push " + p.Text + " rewrites or deletes a remote branch"
			}
		}
	case "checkout":
		f := ShortFlags(rest, "bB")
		if f['f'] || HasLong(rest, "force") || AnyWord(rest, ".") || dashdashPaths(rest) {
			return "git checkout discards local changes"
		}
	case "restore":
		if !AnyWord(rest, "--staged", "-S") || AnyWord(rest, "--worktree", "-W") {
			return "git restore discards local changes"
		}
	case "branch":
		f := ShortFlags(rest, "")
		if f['D'] || (f['d'] && f['f']) || HasLong(rest, "force") && HasLong(rest, "delete") {
			return "git branch -D deletes an unmerged branch"
		}
	case "stash":
		if len(rest) > 0 && (rest[0].Text == "drop" || rest[0].Text == "clear") {
			return "git stash " + rest[0].Text + " deletes stashed work"
		}
	case "reflog":
		if len(rest) > 0 && (rest[0].Text == "expire" || rest[0].Text == "delete") {
			return "git reflog " + rest[0].Text
		}
	case "filter-branch", "filter-repo":
		return "git " + sub + " rewrites history"
	case "update-ref":
		if AnyWord(rest, "-d") {
			return "git update-ref -d deletes a ref"
		}
	case "rm":
		if ShortFlags(rest, "")['r'] {
			return "git rm -r: recursive delete"
		}
	case "gc":
		for _, w := range rest {
			if strings.HasPrefix(w.Text, "--prune") {
				return "git gc --prune drops unreachable objects"
			}
		}
	}
	return ""
}

// dashdashPaths reports paths after a "--".
func dashdashPaths(ws []Word) bool {
	for i, w := range ws {
		if w.Text == "--" {
			return i+1 < len(ws)
		}
	}
	return false
}

// gitWrites: git format-patch -o writes files; git init and git clone
// create the repository they name (in the directories -C moves to, where
// --git-dir and --separate-git-dir put its git directory).
func gitWrites(ws []Word) (string, []Word) {
	if AnyWord(ws, "format-patch") && (ShortFlags(ws, "o")['o'] || HasLong(ws, "output-directory")) {
		return "git format-patch -o writes files", nil
	}
	globals, sub, rest := GitSubcommand(ws)
	if sub != "init" && sub != "clone" {
		return "", nil
	}
	base := Word{Text: ".", Raw: "."}
	var globalGitDir []Word
	for _, g := range globals {
		switch {
		case g.Name == "-C" && g.HasValue:
			base = joinWords(base, g.Value)
		case g.Name == "--git-dir" && g.HasValue:
			globalGitDir = append(globalGitDir, g.Value)
		}
	}
	var pos []Word
	if sub == "init" {
		pos = Positionals(rest, "b", "template", "separate-git-dir", "initial-branch", "object-format", "ref-format")
	} else {
		pos = Positionals(rest, "obuc", "origin", "branch", "upload-pack", "config", "reference", "reference-if-able", "separate-git-dir",
			"depth", "shallow-since", "shallow-exclude", "jobs", "server-option", "filter", "template", "bundle-uri", "ref-format", "revision")
	}
	gitDir := OptionWords(rest, 0, "", "separate-git-dir")
	var dir Word
	switch {
	case sub == "init" && len(pos) > 0:
		dir = pos[0]
	case sub == "init":
		dir = Word{Text: ".", Raw: "."}
	case len(pos) > 1:
		dir = pos[1]
	case len(pos) == 1:
		dir = cloneName(pos[0])
	default:
		return "", nil
	}
	// git init writes the git directory (dir/.git, or where --git-dir
	// says: there alone); git clone creates dir with its work tree
	top := joinWords(base, dir)
	var targets []Word
	switch {
	case sub == "clone":
		targets = append(targets, top)
	case len(globalGitDir) == 0:
		targets = append(targets, joinWords(top, Word{Text: ".git", Raw: ".git"}))
	}
	if sub == "init" && len(pos) > 0 {
		targets = append(targets, top) // made when missing
	}
	for _, g := range append(globalGitDir, gitDir...) {
		targets = append(targets, joinWords(base, g))
	}
	return "git " + sub + " creates a repository in " + targets[0].Raw, targets
}

// cloneName is the directory git clone makes for a URL given alone: its
// last name, less a trailing /.git or .git (known only at run time when
// the URL is).
func cloneName(url Word) Word {
	t := strings.TrimRight(url.Text, "/")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "/.git"), ".git")
	if i := strings.LastIndexAny(t, "/:"); i >= 0 {
		t = t[i+1:]
	}
	return Word{Text: t, Raw: t, Dynamic: url.Dynamic || t == "", Glob: url.Glob}
}

// joinWords is the path of w below the directory base (w itself when
// absolute), known only at run time when either is.
func joinWords(base, w Word) Word {
	t := w.Text
	if !path.IsAbs(t) && !strings.HasPrefix(t, "~") && base.Text != "." {
		t = path.Join(base.Text, t)
	}
	return Word{Text: t, Raw: t, Dynamic: base.Dynamic || w.Dynamic, Glob: base.Glob || w.Glob}
}

// gitRunsConfigured: options that make git run programs configured
// elsewhere (--ext-diff, --textconv, --filters…), or git -C, --git-dir
// and --work-tree on a repository outside the project, whose
// configuration nb has not seen (-C is judged by the disk's facts of the
// repository it names when there are facts).
func gitRunsConfigured(ws []Word, facts bool) string {
	if r := ForbidLong(ws, "ext-diff", "textconv", "filters", "open-files-in-pager", "exec", "upload-pack", "receive-pack", "run", "extcmd", "tool"); r != "" {
		return "git " + strings.TrimPrefix(r, "option ")
	}
	globals, _, _ := GitSubcommand(ws)
	for _, g := range globals {
		if g.Name == "-C" && facts || g.Name != "-C" && g.Name != "--git-dir" && g.Name != "--work-tree" {
			continue
		}
		v := g.Value.Text
		if g.HasValue && (strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || v == ".." || strings.HasPrefix(v, "../") || strings.Contains(v, "/../")) {
			return "git on a repository outside the project runs the programs its configuration names"
		}
	}
	return ""
}

// GitPrintsURLs says why a git read prints the remotes' URLs, which may
// embed a token (git remote -v, get-url, show), or "".
func GitPrintsURLs(sub string, rest []Word) string {
	if sub != "remote" || len(rest) == 0 {
		return ""
	}
	switch rest[0].Text {
	case "-v", "--verbose", "get-url", "show":
		return "git remote " + rest[0].Text + " prints remote URLs, which may embed a token"
	}
	return ""
}

// GitOnDisk says whether a git read reads files on disk rather than the
// repository's objects (git grep --no-index or --untracked, git diff
// --no-index), and which: the operands of diff, "." for grep (narrowed
// by a pathspec only with --no-index: pathspec reports that).
func GitOnDisk(sub string, rest []Word) (targets []Word, pathspec, ok bool) {
	switch {
	case sub == "diff" && HasLong(rest, "no-index"):
		return Positionals(rest, "U"), false, true
	case sub == "grep" && HasLong(rest, "no-index", "untracked"):
		return []Word{{Text: ".", Raw: "."}}, HasLong(rest, "no-index") && !HasLong(rest, "untracked"), true
	}
	return nil, false, false
}

// GitPatternFiles are the files git grep reads its patterns from (-f).
func GitPatternFiles(sub string, rest []Word) []string {
	if sub != "grep" {
		return nil
	}
	return OptionValues(rest, 'f', "efABCm", "")
}

// GitOperands are the words of a git read, after its subcommand and
// before "--", that git may take for revisions or paths: neither
// options, nor a word an option before it may take as its value (git's
// options take the next word: --author NAME, -S STRING, -O FILE, -e
// PATTERN; only the options listed as taking none leave the next word an
// operand, so a value is never taken for a path that narrows what is
// printed), nor git grep's pattern when no -e or -f gives it.
func GitOperands(sub string, rest []Word) []Word {
	shorts := gitShortNoValue + gitSubShortNoValue[sub]
	pattern := false
	if sub == "grep" {
		f := ShortFlags(rest, "efABCm")
		pattern = !f['e'] && !f['f'] && !HasLong(rest, "file")
	}
	var out []Word
	free := true // the word is not an option's value
	for _, w := range rest {
		t := w.Text
		if t == "--" {
			break
		}
		if !w.Static() && (w.Raw == "" || strings.ContainsAny(w.Raw[:1], "-$\"'`")) {
			free = false // an option chosen at run time may take the next word
			continue
		}
		if len(t) > 1 && t[0] == '-' {
			free = gitTakesNoValue(t, shorts)
			continue
		}
		if !free {
			free = true
			continue
		}
		if pattern {
			pattern = false
			continue
		}
		out = append(out, w)
	}
	return out
}

// gitShortNoValue are the short options of git's reads (log, show, diff,
// grep, blame…) that never take a value (and -NUMBER, a count or a
// context); gitSubShortNoValue adds a subcommand's own (git grep -n
// numbers lines, git log -n counts).
const gitShortNoValue = "abcghilopqrstuvwzEFHPRW0123456789"

var gitSubShortNoValue = map[string]string{"grep": "nGIL", "log": "m", "show": "m", "whatchanged": "m", "shortlog": "nem"}

// gitShortValue are the short options of git's reads known to take a
// value, attached (-C2, -Sfoo) or as the next word.
const gitShortValue = "efABCmnSGOLUMIXl"

// gitLongNoValue are long options of git's reads that take no value (or
// only one attached with "=").
var gitLongNoValue = map[string]bool{
	"patch": true, "no-patch": true, "stat": true, "numstat": true, "shortstat": true, "name-only": true, "name-status": true,
	"oneline": true, "cached": true, "staged": true, "color": true, "no-color": true, "all": true, "first-parent": true,
	"merges": true, "no-merges": true, "reverse": true, "graph": true, "decorate": true, "no-decorate": true, "summary": true,
	"raw": true, "ignore-case": true, "invert-match": true, "word-diff": true, "color-words": true, "ignore-all-space": true,
	"ignore-space-change": true, "ignore-blank-lines": true, "text": true, "count": true, "files-with-matches": true,
	"files-without-match": true, "full-name": true, "line-number": true, "column": true, "heading": true, "break": true,
	"show-function": true, "function-context": true, "no-renames": true, "minimal": true, "patience": true, "histogram": true,
	"abbrev-commit": true, "no-abbrev-commit": true, "no-ext-diff": true, "no-textconv": true, "date-order": true,
	"topo-order": true, "author-date-order": true, "left-right": true, "boundary": true, "remotes": true, "branches": true,
	"tags": true, "source": true, "use-mailmap": true, "mailmap": true, "relative-date": true, "parents": true,
	"children": true, "quiet": true, "exit-code": true, "root": true, "fixed-strings": true, "extended-regexp": true,
	"basic-regexp": true, "perl-regexp": true, "word-regexp": true, "all-match": true, "and": true, "or": true, "not": true,
	"null": true, "compact-summary": true, "full-index": true, "binary": true, "no-prefix": true, "no-notes": true,
	"pickaxe-all": true, "pickaxe-regex": true, "find-copies-harder": true, "no-index": true, "untracked": true,
	"recurse-submodules": true, "only-matching": true, "simplify-merges": true,
}

// gitTakesNoValue reports that an option word leaves the word after it
// an operand: its value attached (--name=value), or an option that takes
// none (a short cluster only of such letters).
func gitTakesNoValue(t, shorts string) bool {
	if strings.HasPrefix(t, "--") {
		name, _, eq := strings.Cut(t[2:], "=")
		return eq || gitLongNoValue[name]
	}
	for j := 1; j < len(t); j++ {
		switch {
		case strings.IndexByte(shorts, t[j]) >= 0:
		case strings.IndexByte(gitShortValue, t[j]) >= 0:
			return j < len(t)-1 // the rest of the word is its value
		default:
			return false
		}
	}
	return true
}

// GitPathspecs says how a content-printing git read is narrowed to
// paths: Narrowed for reads of commits and trees, where a pathspec
// narrows what is printed unless --follow or --full-diff takes it back;
// HeadRevs for git diff, narrowed only when its revisions are of HEAD
// (two blobs are diffed whatever the pathspec says); Unnarrowed else.
func GitPathspecs(sub string, rest []Word) GitNarrowing {
	switch sub {
	case "log", "whatchanged", "shortlog", "reflog", "diff-tree", "diff-files", "diff-index", "grep":
		if !HasLong(rest, "follow", "full-diff") {
			return Narrowed
		}
	case "diff":
		return HeadRevs
	}
	return Unnarrowed
}

// GitNarrowing is how a git read's pathspec narrows what it prints.
type GitNarrowing int

const (
	Unnarrowed GitNarrowing = iota
	Narrowed
	HeadRevs
)

// GitSubmoduleContent says why a content-printing git read prints the
// submodules' content too (--submodule=diff, --recurse-submodules), or "".
func GitSubmoduleContent(sub string, rest []Word) string {
	for _, v := range OptionValues(rest, 0, "", "submodule") {
		if v == "diff" {
			return "git " + sub + " --submodule=diff prints the submodules' content too"
		}
	}
	if HasLong(rest, "recurse-submodules") {
		return "git " + sub + " --recurse-submodules reads the submodules' files too"
	}
	return ""
}
