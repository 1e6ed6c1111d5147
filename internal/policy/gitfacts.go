package policy

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/cmdbase"
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
	return cmdbase.GitPrintsURLs(sub, rest)
}

// gitRepoPrograms says why a git read in cc.Cwd may run a program the
// repository configures, or read a file it names or links to; sure is
// set when the facts say it does (then no rule may approve it).
func (e *Engine) gitRepoPrograms(ws []word, cc CommandContext) (why string, sure bool) {
	sub, rest, dir, ok := gitSub(ws, cc.Cwd)
	if !ok {
		return "git with --git-dir or --work-tree reads a repository nb has not looked at", false
	}
	if sub == "" {
		return "", false
	}
	if cc.Facts == nil {
		return "the configuration of the repository in " + dir + " is not known", false
	}
	repo, complete := cc.Facts.GitRepo(path.Clean(dir))
	if !complete {
		return "the configuration of the repository in " + dir + " cannot be read", false
	}
	// every read opens git's own files and may quote them
	if len(repo.Links) > 0 {
		return "git's own file " + repo.Links[0] + " is a link: git would read another file", true
	}
	if why := e.gitFileSettings(repo, cc); why != "" {
		return why, true
	}
	if cmdbase.GitRunsNoProgram(sub, rest) {
		return "", false
	}
	if why := gitPrograms(repo); why != "" {
		return why, true
	}
	return "", false
}

// gitPrograms says why the repository's settings make a read run a
// program (or fetch), or "".
func gitPrograms(repo GitRepo) string {
	var found []string
	for _, s := range repo.Settings {
		if s.Key == "core.worktree" && s.Submodule != "" && s.Inside {
			continue // a submodule's work tree inside the superproject
		}
		if cmdbase.GitConfigRisk(s.Key, s.Value) == "" {
			continue
		}
		k := s.Key
		if s.Submodule != "" {
			k = "submodule " + s.Submodule + ": " + k
		}
		if !contains(found, k) {
			found = append(found, k)
		}
	}
	for _, h := range repo.Hooks {
		found = append(found, "hook "+h)
	}
	if len(found) > 0 {
		return "the repository configures a program git would run (" + strings.Join(found, ", ") + ")"
	}
	return ""
}

// gitFileSettings says why a setting of the repository names a file a
// read opens and may quote that is a secret (blame.ignoreRevsFile
// pointing at ~/.ssh/id_rsa), or "".
func (e *Engine) gitFileSettings(repo GitRepo, cc CommandContext) string {
	for _, s := range repo.Settings {
		if !cmdbase.GitFileKey(s.Key) {
			continue
		}
		v := strings.TrimSpace(s.Value)
		if rest, ok := strings.CutPrefix(v, "~/"); ok && cc.Home != "" {
			v = cc.Home + "/" + rest
		}
		if v != "" && e.secretPath(cc, v, false) {
			return "the repository's " + s.Key + " names " + s.Value + ", which git would read"
		}
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
	if why := e.gitOnDisk(sub, rest, dc); why != "" {
		return why
	}
	for _, f := range cmdbase.GitPatternFiles(sub, rest) {
		if e.secretPath(dc, f, false) {
			return "git " + sub + " reads patterns from " + f
		}
	}
	if !cmdbase.GitPrintsContent(sub, rest) {
		return ""
	}
	if why := cmdbase.GitSubmoduleContent(sub, rest); why != "" {
		return why
	}
	return e.gitTracked(sub, rest, dc)
}

// gitOnDisk says why a git read of the files on disk may read secrets.
func (e *Engine) gitOnDisk(sub string, rest []word, dc CommandContext) string {
	targets, narrowed, ok := cmdbase.GitOnDisk(sub, rest)
	if !ok {
		return ""
	}
	if narrowed {
		// a pathspec narrows the search; none means the directory
		if ps := gitPathspecs(sub, rest, dc); len(ps) > 0 {
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
	return ""
}

// gitTracked says why a content-printing read may print a secret-looking
// file the repository tracks or once committed that its pathspecs do not
// leave out, or "".
func (e *Engine) gitTracked(sub string, rest []word, dc CommandContext) string {
	dir := dc.Cwd
	if dc.Facts == nil {
		return "the files the repository in " + dir + " tracks are not known"
	}
	files, complete := dc.Facts.GitSecrets(dir)
	if !complete {
		return "the files the repository in " + dir + " holds cannot be listed"
	}
	var specs []word
	switch cmdbase.GitPathspecs(sub, rest) {
	case cmdbase.Narrowed:
		specs = gitPathspecs(sub, rest, dc)
	case cmdbase.HeadRevs:
		if gitHeadRevs(rest, dc) {
			specs = gitPathspecs(sub, rest, dc)
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
func gitPathspecs(sub string, rest []word, cc CommandContext) []word {
	for i, w := range rest {
		if w.Text == "--" {
			return rest[i+1:]
		}
	}
	if cc.Facts == nil {
		return nil
	}
	var out []word
	// an option's value (git log -p --author src) and git grep's
	// pattern (git grep src HEAD) name no path, even one that exists
	for _, w := range cmdbase.GitOperands(sub, rest) {
		if !w.Static() {
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
var headRev = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^((HEAD|@|ORIG_HEAD)([~^][0-9]*)*)?(\.\.\.?((HEAD|@|ORIG_HEAD)([~^][0-9]*)*)?)?$`)
})

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
		if !headRev().MatchString(w.Text) {
			return false
		}
	}
	return true
}
