package sandbox

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// gitTimeout bounds asking git about a repository's configuration.
const gitTimeout = 3 * time.Second

// gitConfigFiles asks git itself which files configure the repository at
// dir (`git config --list --show-origin --includes`: the repository's
// config, files it includes, the user's and the system's) and where its
// hooks live (core.hooksPath). Those that lie in the workspace are
// programs run outside the sandbox later: they must stay read-only. Git
// runs nothing for config --list. Without git, nothing is reported.
func gitConfigFiles(dir string) (files []string, hooks string) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "config", "--list", "--show-origin", "--includes", "-z")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return nil, ""
	}
	// origin NUL key NEWLINE value NUL, repeated
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		origin, kv := string(fields[i]), string(fields[i+1])
		p, ok := strings.CutPrefix(origin, "file:")
		if !ok || p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		files = append(files, filepath.Clean(p))
		key, value, _ := strings.Cut(kv, "\n")
		if strings.EqualFold(key, "core.hooksPath") && value != "" {
			hooks = value
			if strings.HasPrefix(hooks, "~/") {
				hooks = "" // the home directory is not writable in the sandbox
			} else if !filepath.IsAbs(hooks) {
				hooks = filepath.Join(dir, hooks)
			}
		}
	}
	return files, hooks
}
