package policy

import (
	"github.com/nb-cli/nb/internal/cmdbase"
	"regexp"
	"strings"
)

// This file is nb's knowledge of git's disk facts: which output may carry
// a credential or a secret the repository tracks, and which reads may run
// a program the repository itself configures. Which subcommands only read
// and which options write or run programs is git's grammar, in
// safe_git.go.
//
// Repository-configured programs: git runs programs named in a
// repository's own configuration during reads — filter.<driver>.clean for
// git status and git diff, diff.<driver>.textconv and diff.external for
// git diff/show/log -p/blame, core.fsmonitor for git status, a pager, gpg
// for signatures, hooks when an index refresh writes the index. nb's hosts
// neutralise what an environment can (core.fsmonitor=false,
// GIT_OPTIONAL_LOCKS=0 so no read writes the index or runs a hook, the
// pager; see host.NonInteractiveEnv); the rest is decided here: a git read
// that may run such a program is safe only when the caller's Facts say the
// repository configures none (GitPrograms), and when they say it does, no
// rule pre-approves it either. Network settings (credential helpers,
// core.sshCommand, url.*.insteadOf, remote.*.uploadpack) only matter to
// commands that contact a remote, which are never safe.

// gitSub finds git's subcommand after its global options and the
// directory -C moves it to (resolved against cwd); ok is false when a
// global option hides the repository (--git-dir, --work-tree, --bare, a
// dynamic -C).
func gitSub(ws []word, cwd string) (sub string, rest []word, dir string, ok bool) {
	globals, sub, rest := cmdbase.GitSubcommand(ws)
	dir = cwd
	for _, g := range globals {
		switch g.Name {
		case "-C":
			if !g.HasValue || !g.Value.Static() {
				return "", nil, "", false
			}
			dir = absPath(g.Value.Text, dir)
		case "--git-dir", "--work-tree", "--bare":
			return "", nil, "", false
		}
	}
	return sub, rest, dir, true
}

// gitCredentialOutput says why a git read may print a credential (a token
// embedded in a remote URL), or "".
func gitCredentialOutput(ws []word) string {
	sub, rest, _, _ := gitSub(ws, "")
	if sub != "remote" || len(rest) == 0 {
		return ""
	}
	switch rest[0].Text {
	case "-v", "--verbose", "get-url", "show":
		return "git remote " + rest[0].Text + " prints remote URLs, which may embed a token"
	}
	return ""
}

// gitRepoPrograms says why a git read in cc.Cwd may run a program the
// repository configures, or ""; sure is set when the facts say it does
// (then no rule may approve it).
func gitRepoPrograms(ws []word, cc CommandContext) (why string, sure bool) {
	sub, _, dir, ok := gitSub(ws, cc.Cwd)
	if !ok {
		return "git with --git-dir or --work-tree reads a repository nb has not looked at", false
	}
	if sub == "" || cmdbase.GitRunsNoProgram(sub) {
		return "", false
	}
	why = gitPrograms(cc, dir)
	return why, why != "" && cc.Facts != nil && !strings.Contains(why, "cannot be read")
}

// GitConfigRisk says why a setting of a repository's own configuration
// (as git reports it: section and variable names lower-cased, the
// subsection as written) makes a git read unsafe, or "": it names a
// program git may run (a diff driver, a pager, a filter, a lazy fetch's
// transport…), or it gives the repository a layout nb cannot vouch for
// (a work tree elsewhere, a partial clone that fetches missing objects
// when a read needs them).
func GitConfigRisk(key, value string) string {
	section, name := key, ""
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		section, name = key[:i], key[i+1:]
	}
	top, sub, hasSub := strings.Cut(section, ".")
	off := func() bool {
		switch strings.ToLower(strings.TrimSpace(value)) {
		case "false", "no", "off", "0", "":
			return true
		}
		return false
	}
	boolish := func() bool {
		switch strings.ToLower(strings.TrimSpace(value)) {
		case "true", "false", "yes", "no", "on", "off", "1", "0", "":
			return true
		}
		return false
	}
	program := key + " names a program"
	switch {
	case top == "include" || top == "includeif":
		return "" // git reports what the included files set
	case section == "core":
		switch name {
		case "fsmonitor":
			if !boolish() {
				return program
			}
		case "pager", "editor", "sshcommand", "alternaterefscommand", "askpass", "gitproxy":
			return program
		case "worktree":
			return "core.worktree puts the work tree elsewhere"
		}
	case top == "pager":
		if !boolish() {
			return program
		}
	case section == "diff" && name == "external":
		return program
	case top == "diff" && hasSub:
		if name == "textconv" || name == "command" {
			return program
		}
	case top == "merge" && hasSub && name == "driver":
		return program
	case top == "filter" && hasSub:
		if name == "clean" || name == "smudge" || name == "process" {
			return program
		}
	case top == "gpg":
		if name == "program" || strings.HasSuffix(name, "command") {
			return program
		}
	case section == "log" && name == "showsignature":
		if !off() {
			return "log.showsignature verifies signatures, which runs gpg"
		}
	case top == "credential" && name == "helper", section == "sequence" && name == "editor",
		section == "interactive" && name == "difffilter", section == "uploadpack" && name == "packobjectshook",
		section == "web" && name == "browser":
		return program
	case top == "remote" && hasSub:
		switch name {
		case "uploadpack", "receivepack", "proxy", "vcs":
			return program
		case "promisor":
			if !off() {
				return "the repository is a partial clone: a read may fetch missing objects"
			}
		case "partialclonefilter":
			return "the repository is a partial clone: a read may fetch missing objects"
		case "url", "pushurl":
			if strings.Contains(value, "::") {
				return key + " uses a transport that runs a program"
			}
		}
	case top == "url" && hasSub:
		if strings.Contains(sub, "::") || strings.Contains(value, "::") {
			return key + " uses a transport that runs a program"
		}
	case top == "protocol":
		if name == "allow" && strings.EqualFold(value, "always") {
			return key + " allows transports that run programs"
		}
	case section == "extensions" && name == "partialclone":
		return "the repository is a partial clone: a read may fetch missing objects"
	case top == "submodule" && name == "update":
		if strings.HasPrefix(strings.TrimSpace(value), "!") {
			return program
		}
	case top == "browser" || top == "man" || top == "difftool" || top == "mergetool":
		if name == "cmd" || name == "path" {
			return program
		}
	}
	if strings.HasSuffix(name, "command") || strings.HasSuffix(name, "cmd") {
		return program
	}
	return ""
}

// gitShowsSecrets says why a git read may print a secret's content, or
// "": an object named by path (HEAD:.env), a search or diff of the files
// on disk (git grep --no-index or --untracked, git diff --no-index), or a
// content-printing read in a repository that tracks, or once committed,
// secret-looking files (Facts.GitSecrets) that the command's pathspecs do
// not leave out.
func (e *Engine) gitShowsSecrets(ws []word, cc CommandContext) string {
	sub, rest, dir, ok := gitSub(ws, cc.Cwd)
	if !ok || sub == "" {
		return ""
	}
	for _, w := range rest {
		if _, p, ok := strings.Cut(w.Text, ":"); ok && !strings.HasPrefix(w.Text, "-") && p != "" && e.sensitivePath(p, "", strings.ContainsAny(p, "*?[")) {
			return "git " + sub + " " + w.Raw + " names a secret file"
		}
	}
	dc := cc
	dc.Cwd = dir
	onDisk := sub == "grep" && cmdbase.HasLong(rest, "no-index", "untracked") || sub == "diff" && cmdbase.HasLong(rest, "no-index")
	if onDisk {
		targets := []word{{Text: ".", Raw: "."}}
		if sub == "diff" {
			targets = cmdbase.Positionals(rest, "U")
		} else if cmdbase.HasLong(rest, "no-index") && !cmdbase.HasLong(rest, "untracked") {
			// a pathspec narrows the search; none means the directory
			if ps := gitPathspecs(rest, dc); len(ps) > 0 {
				targets = ps
			}
		}
		for _, t := range targets {
			if !t.Static() || e.secretPath(dc, t.Text, false) || e.reachesSecret(dc, t.Text) {
				return "git " + sub + " reads the files below " + t.Raw + ", which hold secrets"
			}
			if why := treeSecrets(dc, t.Text, true); why != "" {
				return "git " + sub + " reads the files on disk: " + why
			}
		}
	}
	if sub == "grep" {
		for _, f := range cmdbase.OptionValues(rest, 'f', "efABCm", "") {
			if e.secretPath(dc, f, false) {
				return "git grep reads patterns from " + f
			}
		}
	}
	if !cmdbase.GitPrintsContent(sub, rest) {
		return ""
	}
	for _, v := range cmdbase.OptionValues(rest, 0, "", "submodule") {
		if v == "diff" {
			return "git " + sub + " --submodule=diff prints the submodules' content too"
		}
	}
	if cmdbase.HasLong(rest, "recurse-submodules") {
		return "git " + sub + " --recurse-submodules reads the submodules' files too"
	}
	if cc.Facts == nil {
		return "the files the repository in " + dir + " tracks are not known"
	}
	files, complete := cc.Facts.GitSecrets(dir)
	if !complete {
		return "the files the repository in " + dir + " holds cannot be listed"
	}
	var specs []word
	switch sub {
	case "log", "whatchanged", "shortlog", "reflog", "diff-tree", "diff-files", "diff-index", "grep":
		// revisions here are commits or trees: a pathspec narrows what
		// is printed, unless --follow takes it back through renames or
		// --full-diff prints every file of the commits it selects
		if !cmdbase.HasLong(rest, "follow", "full-diff") {
			specs = gitPathspecs(rest, dc)
		}
	case "diff":
		// two blobs are diffed whatever the pathspec says: only plain
		// revisions of HEAD keep it a diff of trees
		if gitHeadRevs(rest, dc) {
			specs = gitPathspecs(rest, dc)
		}
	}
	for _, f := range files {
		if len(specs) > 0 && !strings.HasPrefix(f, "/") {
			return "the repository holds " + f + ", which git " + sub + " may print"
		}
		covered := len(specs) == 0
		for _, s := range specs {
			p := absPath(s.Text, dir)
			if !s.Static() || strings.HasPrefix(s.Text, ":") || strings.ContainsAny(s.Text, "*?[") || f == p || strings.HasPrefix(f, p+"/") || p == "/" {
				covered = true
			}
		}
		if covered {
			return "the repository holds " + f + ", which git " + sub + " may print"
		}
	}
	return ""
}

// gitPathspecs are the paths a git command is narrowed to: the words
// after "--", or else the operands that name existing paths (git takes
// such an operand for a path).
func gitPathspecs(rest []word, cc CommandContext) []word {
	for i, w := range rest {
		if w.Text == "--" {
			return rest[i+1:]
		}
	}
	if cc.Facts == nil {
		return nil
	}
	var out []word
	for _, w := range rest {
		if strings.HasPrefix(w.Text, "-") || !w.Static() {
			continue
		}
		if _, st := cc.Facts.Resolve(joinRaw(cc.Cwd, w.Text)); st == PathExists {
			out = append(out, w)
		}
	}
	return out
}

// headRev matches revisions that name commits of the current branch
// (HEAD, HEAD~2, @^, ORIG_HEAD) and ranges of them.
var headRev = regexp.MustCompile(`^((HEAD|@|ORIG_HEAD)([~^][0-9]*)*)?(\.\.\.?((HEAD|@|ORIG_HEAD)([~^][0-9]*)*)?)?$`)

// gitHeadRevs reports a git diff whose operands before "--" are existing
// paths or revisions of HEAD.
func gitHeadRevs(rest []word, cc CommandContext) bool {
	if cc.Facts == nil {
		return false
	}
	for _, w := range rest {
		if w.Text == "--" {
			return true
		}
		if strings.HasPrefix(w.Text, "-") {
			continue
		}
		if !w.Static() {
			return false
		}
		if _, st := cc.Facts.Resolve(joinRaw(cc.Cwd, w.Text)); st == PathExists {
			continue
		}
		if !headRev.MatchString(w.Text) {
			return false
		}
	}
	return true
}
