package cmdbase

import "strings"

// git. Its read-only subcommands and options, the settings that make a
// read run a program and the forms that destroy work are judged by
// the safe list (safe_git.go) and the policy's git facts (policy/gitfacts.go), which asks git itself
// about a repository's configuration.
var _ = registerUnix(Git, []Prog{
	{Name: "git", Is: Subcommands | Checked, Outputs: []Output{{Long: "output"}},
		// the options before the subcommand that take the next word as
		// their value (git(1)); --exec-path and --list-cmds take theirs
		// only after "="
		Globals: []string{"-C", "-c", "--config-env", "--git-dir", "--work-tree", "--namespace",
			"--super-prefix", "--attr-source"},
		Ends:    []string{"--exec-path", "--html-path", "--man-path", "--info-path", "--version", "-v"},
		Dangers: gitDanger,
		Subs: []ProgSub{
			{Name: "config", Runs: true}, {Name: "rebase", Runs: true}, {Name: "bisect", Runs: true},
			{Name: "submodule", Runs: true}, {Name: "difftool", Runs: true}, {Name: "mergetool", Runs: true},
			{Name: "filter-branch", Runs: true}, {Name: "filter-repo", Runs: true}, {Name: "daemon", Runs: true},
			{Name: "instaweb", Runs: true}, {Name: "credential", Runs: true},
		}},
})

// GitSubcommand reads a git command line (the words after "git"): its
// global options, the subcommand ("" when there is none) and the words
// after it.
func GitSubcommand(args []Word) (globals []Global, sub string, rest []Word) {
	globals, at := unix["git"].Subcommand(args)
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
