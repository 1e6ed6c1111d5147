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

// gitTimeout bounds asking git about a repository.
const gitTimeout = 3 * time.Second

// protected is a path that must stay read-only, existing or not; dir
// says what covers it while it does not exist.
type protected struct {
	path string
	dir  bool
}

// gitProtected asks git itself what it will read as configuration or run
// as hooks for the writable tree w, existing or not:
//   - the repository holding w, wherever its top is (git rev-parse, so a
//     workspace that is a subdirectory of a repository is covered): its
//     git directories (a worktree's or submodule's may lie elsewhere);
//   - every file the configuration reads (git config --show-origin
//     --includes: the repository's, the user's, the system's, included
//     ones);
//   - the targets of include.path and includeIf.*.path, which git reads
//     once they exist, relative to the file naming them;
//   - core.hooksPath, from any of those files, relative to the top of
//     the worktree (where git runs hooks), or to w when w holds no
//     repository yet (one created there would use it).
//
// The caller keeps those inside the writable trees. git runs nothing for
// these questions. Without git, nothing is reported.
func gitProtected(w string) []protected {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	var out []protected
	// Both questions are asked at once. git names the files of the
	// configuration relative to the top, wherever it runs in the tree.
	cmd := gitCommand(ctx, w, "config", "--list", "--show-origin", "--includes", "-z")
	var cfg bytes.Buffer
	cmd.Stdout = &cfg
	err := cmd.Start()
	top := w
	if lines := gitLines(ctx, w, "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"); len(lines) == 3 {
		top = lines[0]
		out = append(out, protected{lines[1], true}, protected{absFrom(w, lines[2]), true})
	}
	if err == nil {
		err = cmd.Wait()
	}
	b := cfg.Bytes()
	if err != nil && len(b) == 0 {
		return out
	}
	home, _ := os.UserHomeDir()
	// origin NUL key NEWLINE value NUL, repeated
	fields := bytes.Split(b, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		file, ok := strings.CutPrefix(string(fields[i]), "file:")
		if !ok || file == "" {
			continue
		}
		file = absFrom(top, file)
		out = append(out, protected{file, false})
		key, value, _ := strings.Cut(string(fields[i+1]), "\n")
		key = strings.ToLower(key)
		if value == "" {
			continue
		}
		switch {
		case key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path"):
			if p := expandGitPath(value, home, filepath.Dir(file)); p != "" {
				out = append(out, protected{p, false})
			}
		case key == "core.hookspath":
			if p := expandGitPath(value, home, top); p != "" {
				out = append(out, protected{p, true})
			}
		}
	}
	return out
}

// expandGitPath is a path as git reads it from its configuration: ~/ is
// home, a relative path is relative to base.
func expandGitPath(p, home, base string) string {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, p[1:])
	case strings.HasPrefix(p, "~"):
		return "" // another user's home: not the workspace
	}
	return absFrom(base, p)
}

func absFrom(base, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// gitLines runs git in dir and returns its output's lines, nil when it
// failed.
func gitLines(ctx context.Context, dir string, args ...string) []string {
	b, err := gitCommand(ctx, dir, args...).Output()
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

func gitCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	return cmd
}
