package cmdbase_test

import (
	"testing"
)

// gitExamples are the examples of safe_git.go's table: each of its
// commands in a command that must be allowed and, where it has a form that
// is not read-only, in one that must ask.
var gitExamples = []safeGroup{
	{"git",
		[]string{
			"git status", "git log --oneline -5", "git diff --stat", "git show --stat HEAD", "git branch -a", "git tag -l",
			"git remote", "git config user.name", "git clean -n", "git stash list", "git blame go.mod", "git rev-parse HEAD",
			"git -C src ls-files"},
		[]string{
			"git commit -m x", "git push", "git fetch", "git -c core.pager=sh log", "git --exec-path=/tmp log",
			"git branch -D x", "git tag v1", "git remote add o x", "git config --list", "git config user.name x",
			"git config remote.origin.url", "git clean -fd", "git clean -n -f --no-dry-run", "git stash",
			"git log --output=x", "git diff --ext-diff", "git log --format=%G?", "git grep -O x", "git hash-object -w go.mod",
			"git var -l", "git reflog expire --all"}},
}

func TestSafeGit(t *testing.T) { checkSafeExamples(t, gitExamples) }
