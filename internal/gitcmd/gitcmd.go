// Package gitcmd runs git for nb's own reads of a repository (the files
// an @mention completes, where the local exclude file is) so that nothing
// the repository configures runs: a cloned repository's .git/config may
// name programs git starts on its own, such as core.fsmonitor on any
// command that looks at the work tree.
package gitcmd

import (
	"context"
	"os"
	"os/exec"
	"time"
)

// Command is git with args, run in dir: without the repository's
// file-system monitor, ssh command or fetches of any protocol, prompts,
// a pager or optional locks.
func Command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	pre := []string{"--no-pager", "-c", "core.fsmonitor=false", "-c", "protocol.allow=never", "-c", "core.sshCommand=false", "-C", dir}
	cmd := exec.CommandContext(ctx, "git", append(pre, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "GIT_NO_LAZY_FETCH=1", "LC_ALL=C")
	cmd.WaitDelay = time.Second
	return cmd
}
