package fsfacts

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/secrets"
)

// gitTimeout bounds one question to git; a repository git cannot answer
// about in time is reported incomplete (its reads are asked).
const gitTimeout = 3 * time.Second

// errNoRepo is git's answer outside any repository.
var errNoRepo = errors.New("not a git repository")

// git runs git in dir with the arguments and returns its standard output.
// Nothing it runs may start a program of the repository's choosing: only
// rev-parse, config, ls-files and rev-list are asked, without a pager,
// prompts, optional locks, the file-system monitor (ls-files would run
// core.fsmonitor) or lazy fetches of a partial clone.
func (d Disk) git(dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	pre := []string{"--no-pager", "-c", "core.fsmonitor=false", "-c", "protocol.allow=never", "-c", "core.sshCommand=false", "-C", dir}
	cmd := exec.CommandContext(ctx, "git", append(pre, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "LC_ALL=C", "GIT_NO_LAZY_FETCH=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if strings.Contains(errb.String(), "not a git repository") {
			return nil, errNoRepo
		}
		return nil, errors.New("git " + strings.Join(args, " ") + ": " + strings.TrimSpace(errb.String()) + ": " + err.Error())
	}
	return out.Bytes(), nil
}

// gitAvailable reports whether git can be run at all: without it, no git
// read runs anything.
func gitAvailable() bool {
	_, err := exec.LookPath("git")
	return err == nil
}

// repo is what git says about the repository containing a directory.
type repo struct {
	gitDir, commonDir, top, hooks string
}

// findRepo asks git for the repository containing dir; nil outside any.
// repoOf is the repository containing dir. It is nil when there is none
// (or no git to read one: then no git read runs either), known true; nil
// with known false when it cannot be told.
func (d Disk) repoOf(dir string) (r *repo, known bool) {
	if !gitAvailable() {
		return nil, true
	}
	r, err := d.findRepo(dir)
	if errors.Is(err, errNoRepo) {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	return r, true
}

func (d Disk) findRepo(dir string) (*repo, error) {
	out, err := d.git(dir, "rev-parse", "--absolute-git-dir", "--git-common-dir", "--git-path", "hooks")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 3 {
		return nil, errors.New("git rev-parse: unexpected answer")
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	r := &repo{gitDir: lines[0], commonDir: abs(lines[1]), hooks: abs(lines[2])}
	if top, err := d.git(dir, "rev-parse", "--show-toplevel"); err == nil {
		r.top = strings.TrimRight(string(top), "\n")
	}
	return r, nil
}

// configEntry is one setting as git reports it.
type configEntry struct {
	scope, origin, key, value string
}

// config asks git for every setting a command run in dir would see, the
// included files followed as git follows them. gitDir, when set, names
// the repository instead of discovering it from dir.
func (d Disk) config(dir, gitDir string) ([]configEntry, error) {
	args := []string{"config", "--list", "--show-scope", "--show-origin", "--includes", "-z"}
	if gitDir != "" {
		args = append([]string{"--git-dir=" + gitDir}, args...)
	}
	out, err := d.git(dir, args...)
	if err != nil {
		return nil, err
	}
	var entries []configEntry
	fields := strings.Split(string(out), "\x00")
	for i := 0; i+2 < len(fields); i += 3 {
		key, value, _ := strings.Cut(fields[i+2], "\n")
		entries = append(entries, configEntry{scope: fields[i], origin: fields[i+1], key: key, value: value})
	}
	return entries, nil
}

// ownSettings are the settings of the repository's own configuration
// (local and worktree scopes, with what they include), for submodule sub
// ("" the repository itself); inside says whether a path leads inside the
// superproject's work tree. The user's own (system, global) and the
// command line's are the user's choice and not reported.
func ownSettings(entries []configEntry, sub string, inside func(string) bool) []policy.GitSetting {
	var out []policy.GitSetting
	for _, e := range entries {
		if e.scope != "local" && e.scope != "worktree" {
			continue
		}
		s := policy.GitSetting{Key: e.key, Value: e.value, Submodule: sub}
		if e.key == "core.worktree" && inside != nil {
			s.Inside = inside(e.value)
		}
		out = append(out, s)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// GitRepo implements policy.Facts by asking git: the settings git itself
// reports for the repository a command in dir reaches (its
// configuration, config.worktree, the common directory's — an embedded
// bare repository reached through commondir included — and every file
// they include), the same for each submodule git may recurse into, a
// post-index-change hook an index refresh would run, and git's own files
// that are links.
func (d Disk) GitRepo(dir string) (policy.GitRepo, bool) {
	dir = diskPath(dir)
	r, known := d.repoOf(dir)
	if r == nil {
		return policy.GitRepo{}, known
	}
	entries, err := d.config(dir, "")
	if err != nil {
		return policy.GitRepo{}, false
	}
	repo := policy.GitRepo{Settings: ownSettings(entries, "", nil)}
	if fi, err := os.Stat(filepath.Join(r.hooks, "post-index-change")); err == nil && fi.Mode()&0o111 != 0 {
		repo.Hooks = append(repo.Hooks, "post-index-change")
	}
	repo.Links = gitLinks(r)
	subs, ok := d.submoduleSettings(r)
	repo.Settings = append(repo.Settings, subs...)
	return repo, ok
}

// gitLinks are git's own files (cmdbase.GitOwnFiles) in the git and
// common directories that are symbolic links, or hard links of a file
// with other names: what git reads there is another file.
func gitLinks(r *repo) []string {
	var out []string
	for _, base := range []string{r.gitDir, r.commonDir} {
		for _, name := range cmdbase.GitOwnFiles() {
			p := filepath.Join(base, filepath.FromSlash(name))
			filepath.WalkDir(p, func(q string, e fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if linked(q, e) {
					rel, _ := filepath.Rel(base, q)
					if rel = filepath.ToSlash(rel); !contains(out, rel) {
						out = append(out, rel)
					}
				}
				return nil
			})
		}
	}
	return out
}

// linked reports a symbolic link, or a regular file with more than one
// name.
func linked(p string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink != 0 {
		return true
	}
	fi, err := e.Info()
	return err == nil && fi.Mode().IsRegular() && links(fi) > 1
}

// submoduleSettings asks git about the repositories below a work tree
// that git status and git diff recurse into: the git directories kept in
// the common directory's modules/, and checked-out gitlinks holding their
// own .git; a submodule's core.worktree is reported inside or not.
func (d Disk) submoduleSettings(r *repo) ([]policy.GitSetting, bool) {
	var found []policy.GitSetting
	inside := func(base string) func(string) bool {
		return func(v string) bool {
			if r.top == "" {
				return false
			}
			if !filepath.IsAbs(v) {
				v = filepath.Join(base, v)
			}
			v = filepath.Clean(v)
			return v == r.top || strings.HasPrefix(v, r.top+string(filepath.Separator))
		}
	}
	add := func(entries []configEntry, base, name string) {
		found = append(found, ownSettings(entries, name, inside(base))...)
	}
	complete := true
	n := 0
	filepath.WalkDir(filepath.Join(r.commonDir, "modules"), func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.IsDir() {
			return nil
		}
		if !fileExists(filepath.Join(p, "HEAD")) || !fileExists(filepath.Join(p, "config")) {
			return nil
		}
		if n++; n > 50 {
			complete = false
			return filepath.SkipAll
		}
		entries, err := d.config(p, p)
		if err != nil {
			complete = false
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(r.commonDir, p)
		add(entries, p, filepath.ToSlash(rel))
		return nil
	})
	if r.top == "" {
		return found, complete
	}
	out, err := d.git(r.top, "ls-files", "-s", "-z")
	if err != nil {
		return found, false
	}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		if !ok || !strings.HasPrefix(meta, "160000 ") {
			continue
		}
		sub := filepath.Join(r.top, filepath.FromSlash(path))
		// core.worktree is relative to the submodule's git directory
		base := filepath.Join(sub, ".git")
		fi, err := os.Lstat(base)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			b, err := os.ReadFile(base)
			g, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if err != nil || !ok {
				return found, false
			}
			if base = strings.TrimSpace(g); !filepath.IsAbs(base) {
				base = filepath.Join(sub, base)
			}
		}
		if n++; n > 50 {
			return found, false
		}
		entries, err := d.config(sub, "")
		if err != nil {
			return found, false
		}
		add(entries, base, path)
	}
	return found, complete
}

// GitSecrets implements policy.Facts by asking git: the paths in the
// index and in every commit, stash and reflog entry's tree whose names
// look like secret values (secrets.ValueFile; a tracked certificate only
// when its content holds a private key), below the top of the work tree
// (relative in a bare repository).
func (d Disk) GitSecrets(dir string) ([]string, bool) {
	dir = diskPath(dir)
	r, known := d.repoOf(dir)
	if r == nil {
		return nil, known
	}
	var found []string
	inIndex := map[string]bool{}
	add := func(p string) {
		if p == "" || !secrets.ValueFile(p) {
			return
		}
		if inIndex[p] && r.top != "" && secrets.PublicOnlyByContent(p) && !d.SecretContent(filepath.Join(r.top, filepath.FromSlash(p))) {
			return // a certificate in the work tree, its private key elsewhere
		}
		if r.top != "" {
			p = filepath.ToSlash(r.top) + "/" + p
		}
		if !contains(found, p) {
			found = append(found, p)
		}
	}
	if r.top != "" {
		out, err := d.git(r.top, "ls-files", "-z", "--full-name")
		if err != nil {
			return found, false
		}
		for _, p := range strings.Split(string(out), "\x00") {
			inIndex[p] = true
			add(p)
		}
	}
	out, err := d.git(dir, "rev-list", "--all", "--reflog", "--objects", "--missing=allow-any", "--filter=object:type=blob")
	if err != nil {
		return found, false
	}
	for _, line := range strings.Split(string(out), "\n") {
		if _, p, ok := strings.Cut(line, " "); ok {
			add(p)
		}
	}
	return found, true
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
