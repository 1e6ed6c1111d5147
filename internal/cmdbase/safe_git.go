package cmdbase

import (
	"slices"
	"strings"

	"github.com/nb-cli/nb/internal/shellparse"
)

// git's read-only grammar (cmdbase/unix_git.go): which subcommands only
// read and which of their options write files or run programs. Whether a
// read may run a program the repository configures, print a credential
// or a tracked secret is a fact of the disk, judged by the policy (policy/gitfacts.go).
var _ = registerSafe(Git, safeGit)

// safeGit is built on first use (safeTables).
var safeGit = func() map[string]safeCmd {
	return map[string]safeCmd{
		"git": {check: gitReadOnly},
	}
}

var gitReadSubs = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "rev-parse": true, "ls-files": true,
	"ls-tree": true, "blame": true, "annotate": true, "shortlog": true, "describe": true, "cat-file": true,
	"rev-list": true, "grep": true, "whatchanged": true, "name-rev": true, "merge-base": true,
	"for-each-ref": true, "show-ref": true, "show-branch": true, "version": true, "check-ignore": true,
	"check-attr": true, "count-objects": true, "diff-tree": true, "diff-files": true, "diff-index": true,
	"var": true, "cherry": true, "range-diff": true,
}

// gitReadOnlyGlobals are git's options before the subcommand that
// change nothing a read-only subcommand does (-C is judged by the
// policy's disk facts of the repository it names).
var gitReadOnlyGlobals = map[string]bool{
	"-C": true, "--no-pager": true, "-P": true, "--bare": true, "--no-replace-objects": true, "--literal-pathspecs": true,
	"--no-optional-locks": true, "--glob-pathspecs": true, "--noglob-pathspecs": true, "--icase-pathspecs": true,
	"--version": true, "--exec-path": true, "--html-path": true, "--man-path": true, "--info-path": true,
	"--git-dir": true, "--work-tree": true,
}

// gitReadOnly accepts read-only git subcommands without options that run
// programs or write files.
func gitReadOnly(ws []word) string {
	globals, sub, rest := GitSubcommand(ws)
	if why := gitGlobalsWhy(globals, ws, sub); why != "" || sub == "" {
		return why
	}
	if why := gitRunsWhy(rest); why != "" {
		return why
	}
	return gitSubReadOnly(sub, rest)
}

// gitGlobalsWhy judges git's options before the subcommand (and, with no
// subcommand, words after an option that prints and exits).
func gitGlobalsWhy(globals []Global, ws []word, sub string) string {
	for _, g := range globals {
		switch {
		case g.Name == "-c" || g.Name == "--config-env" || strings.HasPrefix(g.Name, "-c"):
			return "git " + g.Name + " sets configuration that can run programs"
		case g.Name == "--exec-path" && g.HasValue:
			return "git --exec-path runs programs from another directory"
		case !gitReadOnlyGlobals[g.Name]:
			return "git option " + g.Name + " is not known to be read-only"
		}
	}
	if n := len(globals); sub == "" && n > 0 && ws[len(ws)-1].Text != globals[n-1].Name && !globals[n-1].HasValue {
		// git --exec-path x log prints and exits; a word after
		// such an option is not judged
		return "git " + globals[n-1].Name + " followed by more words is not known to be read-only"
	}
	return ""
}

// gitRunsWhy finds the options of any subcommand that run programs or
// write files: output files, external diff and text conversion, merge
// drivers, signature checks.
func gitRunsWhy(rest []word) string {
	bad := ForbidLong(rest, "output", "ext-diff", "textconv", "filters", "open-files-in-pager", "exec", "upload-pack", "receive-pack", "run", "show-signature",
		// a remerge runs merge drivers; alternate refs run
		// core.alternateRefsCommand
		"remerge-diff", "alternate-refs", "output-directory")
	if bad != "" {
		return bad
	}
	for _, v := range OptionValues(rest, 0, "", "diff-merges") {
		if v == "" || strings.HasPrefix("remerge", v) {
			return "git --diff-merges=" + v + " remerges, which runs merge drivers"
		}
	}
	for _, w := range rest {
		if w.Text == "--" {
			break
		}
		// %G? %GS %GK… verify signatures: they run gpg.program
		if strings.HasPrefix(w.Text, "-") && (strings.Contains(w.Text, "%G") || strings.Contains(w.Text, "%(signature")) {
			return "git format " + w.Text + " verifies signatures, which runs a program"
		}
	}
	return ""
}

// gitSubReadOnly judges a subcommand that reads in some forms only, or
// one of the read-only ones.
func gitSubReadOnly(sub string, rest []word) string {
	op := ""
	if len(rest) > 0 {
		op = rest[0].Text
	}
	switch sub {
	case "branch":
		return gitBranchList(rest)
	case "tag":
		return gitTagList(rest)
	case "remote":
		return gitRemoteShow(rest)
	case "config":
		return gitConfigGet(rest)
	case "stash":
		if op == "list" || op == "show" {
			return ""
		}
		return "git stash changes the working tree"
	case "worktree":
		if op == "list" {
			return ""
		}
		return "git worktree changes worktrees"
	case "submodule":
		if op == "status" {
			return ""
		}
		return "git submodule changes submodules"
	case "reflog":
		if len(rest) == 0 || op == "show" {
			return ""
		}
		return "git reflog " + op + " changes the reflog"
	case "notes":
		if len(rest) == 0 || op == "list" || op == "show" {
			return ""
		}
		return "git notes changes notes"
	case "grep":
		return ForbidShort("O", "efABCm", rest)
	case "clean":
		return gitCleanDry(rest)
	case "hash-object":
		if r := first(ForbidShort("w", "t", rest), ForbidLong(rest, "stdin-paths")); r != "" {
			return "git hash-object " + strings.TrimSuffix(strings.TrimPrefix(r, "option "), " is not read-only") + " writes objects"
		}
		return ""
	case "var":
		if AnyWord(rest, "-l") {
			return "git var -l lists the configuration, which may hold credentials"
		}
	}
	if gitReadSubs[sub] {
		return ""
	}
	return "git " + sub + " is not known to be read-only"
}

// gitBranchList accepts git branch when it only lists.
func gitBranchList(rest []word) string {
	for _, w := range rest {
		switch w.Text {
		case "-a", "-r", "-l", "--list", "-v", "-vv", "--all", "--remotes", "--show-current", "--no-color", "--color",
			"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "-i", "--ignore-case", "--column", "--no-column":
			continue
		}
		if strings.HasPrefix(w.Text, "--sort=") || strings.HasPrefix(w.Text, "--format=") || strings.HasPrefix(w.Text, "--contains=") ||
			strings.HasPrefix(w.Text, "--merged=") || strings.HasPrefix(w.Text, "--no-merged=") || strings.HasPrefix(w.Text, "--points-at=") {
			continue
		}
		if !strings.HasPrefix(w.Text, "-") && (AnyWord(rest, "-l", "--list", "--contains", "--merged", "--no-merged", "--points-at")) {
			continue
		}
		return "git branch " + w.Text + " changes branches"
	}
	return ""
}

// gitRemoteShow accepts git remote when it lists remotes or shows one
// without contacting it.
func gitRemoteShow(rest []word) string {
	if len(rest) == 0 || (len(rest) == 1 && (rest[0].Text == "-v" || rest[0].Text == "--verbose")) {
		return ""
	}
	if rest[0].Text == "get-url" {
		return ""
	}
	if rest[0].Text == "show" {
		if AnyWord(rest, "-n") {
			return ""
		}
		return "git remote show contacts the remote"
	}
	return "git remote changes remotes"
}

// gitConfigGet accepts git config when it reads one key that cannot hold
// a credential. Configuration can hold credentials (http.extraheader,
// tokens in remote URLs): listing it, or reading such a key, is asked.
func gitConfigGet(rest []word) string {
	if AnyWord(rest, "--list", "-l", "--get-regexp", "--get-urlmatch", "list") || HasLong(rest, "list") {
		return "git config --list may show credentials stored in the configuration"
	}
	pos := Positionals(rest, "f", "file", "blob", "type")
	for _, p := range pos {
		if SecretKey.MatchString(p.Text) {
			return "git config " + p.Text + " may hold a credential"
		}
	}
	if AnyWord(rest, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "get") || len(pos) == 1 {
		if AnyWord(rest, "--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit", "set", "unset") {
			return "git config changes configuration"
		}
		return ""
	}
	return "git config changes configuration"
}

// gitCleanLongs are git clean's long options; git takes any unique
// abbreviation and a --no- form of each.
var gitCleanLongs = []string{"dry-run", "quiet", "exclude", "force", "interactive", "no-dry-run", "no-quiet", "no-force"}

// gitCleanDry accepts git clean only when its options, read in order as
// git reads them, leave it a dry run (the last of -n, --dry-run and
// --no-dry-run wins); any option it does not know is asked.
func gitCleanDry(ws []word) string {
	dry := false
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		if !ws[i].Static() {
			return "git clean option " + ws[i].Raw + " is chosen at run time"
		}
		switch {
		case t == "--":
			i = len(ws)
		case strings.HasPrefix(t, "--"):
			name, _, eq := strings.Cut(t[2:], "=")
			switch shellparse.ResolveLong(name, gitCleanLongs) {
			case "dry-run":
				dry = true
			case "no-dry-run":
				dry = false
			case "quiet", "no-quiet", "force", "no-force":
			case "exclude":
				if !eq {
					i++
				}
			default:
				return "git clean option " + t + " is not known to keep it a dry run"
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'n':
					dry = true
				case 'd', 'f', 'x', 'X', 'q':
				case 'e':
					if j == len(t)-1 {
						i++
					}
					j = len(t)
				default:
					return "git clean option -" + string(t[j]) + " is not known to keep it a dry run"
				}
			}
		}
	}
	if !dry {
		return "git clean deletes files"
	}
	return ""
}

// gitProgramFree are read-only subcommands that never run a program the
// repository configures (no content diff, no filter, no pager when the
// output is not a terminal) and read no tree or blob a partial clone
// would fetch (which runs the remote's transport: cat-file, ls-tree and
// rev-list are not here).
var gitProgramFree = map[string]bool{
	"version": true, "rev-parse": true, "var": true, "config": true, "branch": true, "tag": true,
	"remote": true, "for-each-ref": true, "show-ref": true, "merge-base": true,
	"name-rev": true, "count-objects": true, "check-ignore": true, "check-attr": true,
	"describe": true, "worktree": true, "show-branch": true,
}

// GitRunsNoProgram reports a read-only git subcommand that, with the
// words after it, never runs a program the repository configures
// (gitProgramFree): git describe --dirty and --broken refresh the index,
// which runs the post-index-change hook, as git status does.
func GitRunsNoProgram(sub string, rest []Word) bool {
	if sub == "describe" && (HasLong(rest, "dirty", "broken")) {
		return false
	}
	return gitProgramFree[sub]
}

// gitNamesOnly are options after which git diff and git show print
// names and counts, not content (unless a patch option comes too).
var gitNamesOnly = []string{"stat", "numstat", "shortstat", "name-only", "name-status", "summary", "dirstat", "raw", "quiet", "no-patch", "compact-summary"}

// gitPatchLongs are options that make log-like commands print content.
var gitPatchLongs = []string{"patch", "patch-with-stat", "patch-with-raw", "cc", "unified", "word-diff", "color-words",
	"function-context", "remerge-diff", "dd", "diff-merges", "combined-all-paths", "binary", "full-diff", "line-porcelain", "textconv"}

// gitPatchShort reports a short option that makes log print patches (-p,
// -u, -U3, -c, -m, -L…, -W) before "--".
func gitPatchShort(ws []word) bool {
	for _, w := range ws {
		t := w.Text
		if t == "--" {
			return false
		}
		if len(t) < 2 || t[0] != '-' || t[1] == '-' {
			continue
		}
		switch t[1] {
		case 'p', 'u', 'U', 'c', 'm', 'L', 'W':
			return true
		}
		if len(t) <= 4 && strings.ContainsAny(t[1:], "pu") && strings.Trim(t[1:], "pusnqz") == "" {
			return true // a cluster such as -sp
		}
	}
	return false
}

// GitPrintsContent reports git subcommands that, as given, print the
// content of files the repository holds (patches, blobs, matching
// lines), not only their names.
func GitPrintsContent(sub string, rest []word) bool {
	patch := gitPatchShort(rest) || HasLong(rest, gitPatchLongs...)
	switch sub {
	case "show", "range-diff", "grep":
		return true
	case "diff":
		return patch || !(ShortFlags(rest, "U")['s'] || HasLong(rest, gitNamesOnly...))
	case "log", "whatchanged", "diff-tree", "diff-files", "diff-index", "shortlog", "reflog":
		return patch
	case "stash":
		// stash.showPatch in any configuration makes a plain show print;
		// stash list takes log's options (-p)
		return len(rest) > 0 && (rest[0].Text == "show" || rest[0].Text == "list" && patch)
	case "cat-file":
		for _, w := range rest {
			switch w.Text {
			case "-t", "-s", "-e", "--batch-check":
			default:
				if strings.HasPrefix(w.Text, "-") {
					return true
				}
			}
		}
		return !AnyWord(rest, "-t", "-s", "-e", "--batch-check")
	case "notes":
		return len(rest) > 0 && rest[0].Text == "show"
	case "status":
		// git status -v shows the staged diff, -vv the unstaged one too
		return ShortFlags(rest, "")['v'] || HasLong(rest, "verbose")
	}
	return false
}

// gitTagListing are git tag's options that only choose or shape what a
// listing shows; gitTagValued take a value (after "=" or the next word).
var (
	gitTagListing = []string{"-l", "--list", "--column", "--no-column", "-i", "--ignore-case", "--color", "--omit-empty"}
	gitTagValued  = []string{"--contains", "--no-contains", "--points-at", "--merged", "--no-merged", "--sort", "--format", "--column", "--color"}
)

// gitTagList accepts git tag when it lists: no operand (a name creates
// a tag), or patterns after -l; only listing options.
func gitTagList(rest []word) string {
	list, operands := false, 0
	for i := 0; i < len(rest); i++ {
		t := rest[i].Text
		name, _, eq := strings.Cut(t, "=")
		switch {
		case !strings.HasPrefix(t, "-"):
			operands++
		case t == "-l" || t == "--list":
			list = true
		case slices.Contains(gitTagValued, name):
			// --contains, --points-at, --merged and their --no- forms
			// imply --list (git-tag(1))
			list = list || name != "--sort" && name != "--format" && name != "--column" && name != "--color"
			if !eq && name != "--column" && name != "--color" && i+1 < len(rest) {
				i++ // the commit or key it takes
			}
		case t == "-n" || strings.HasPrefix(t, "-n") && digits(t[2:]):
			list = true // -n implies --list too
		case slices.Contains(gitTagListing, t):
		default:
			return "git tag " + t + " creates, deletes or verifies tags"
		}
	}
	if operands > 0 && !list {
		return "git tag NAME creates a tag"
	}
	return ""
}
