package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/gitcmd"
)

// excludePattern is the line nb adds to a repository's local exclude
// file: the history, its temporary files and the copies moved aside.
const excludePattern = HistoryFile + "*"

// excludeTimeout bounds the git commands of ExcludeFromGit.
const excludeTimeout = 3 * time.Second

// ExcludeFromGit lists the history file's name in the local exclude file
// of the git work tree holding it (info/exclude in the repository's git
// directory, which git itself names: worktrees and submodules have a .git
// file, not a directory), so that git status stays clean. It never
// touches a file the repository commits. Nothing is done outside a work
// tree, without git, or when git ignores the file already.
func ExcludeFromGit(file string) error {
	ctx, cancel := context.WithTimeout(context.Background(), excludeTimeout)
	defer cancel()
	dir, name := filepath.Dir(file), filepath.Base(file)
	out, err := gitcmd.Command(ctx, dir, "rev-parse", "--is-inside-work-tree", "--path-format=absolute", "--git-path", "info/exclude").Output()
	if err != nil {
		return nil // not in a repository, or no git
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] != "true" || !filepath.IsAbs(lines[1]) {
		return nil
	}
	exclude := lines[1]
	err = gitcmd.Command(ctx, dir, "check-ignore", "-q", "--no-index", "--", name).Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		return nil // ignored already (0), or git failed
	}
	if err := os.MkdirAll(filepath.Dir(exclude), 0o755); err != nil {
		return err
	}
	line := "# nb's conversation history\n" + excludePattern + "\n"
	if data, err := os.ReadFile(exclude); err == nil && len(data) > 0 && data[len(data)-1] != '\n' {
		line = "\n" + line
	}
	f, err := os.OpenFile(exclude, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
