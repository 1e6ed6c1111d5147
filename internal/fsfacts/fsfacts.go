// Package fsfacts reads from the local disk the facts the policy engine
// cannot read itself (policy.Facts): the secret files below a directory,
// and the programs a git repository's own configuration makes a read run.
package fsfacts

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/nb-cli/nb/internal/policy"
)

// Disk implements policy.Facts for the local filesystem.
type Disk struct {
	// MaxEntries bounds the directory entries looked at for one tree; a
	// larger tree is reported incomplete. 0 means 20000.
	MaxEntries int
	// Home expands ~ in include paths of git configuration.
	Home string
}

var _ policy.Facts = Disk{}

// errBudget stops a walk that has looked at enough entries.
var errBudget = errors.New("too many entries")

// credentialLine finds a credential in git configuration: a URL with a
// password or token in it, or an extra HTTP header.
var credentialLine = regexp.MustCompile(`(?i)://[^/\s@]*:[^/\s@]*@|https?://[^/\s@:]+@|extraheader|password|token`)

// SecretFiles implements policy.Facts: files named like secrets
// (policy.SecretName), symbolic links to such files, and the
// configuration files of git repositories in the tree that hold a
// credential.
func (d Disk) SecretFiles(dir string) ([]string, bool) {
	max := d.MaxEntries
	if max == 0 {
		max = 20000
	}
	var found []string
	n := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			// unreadable: what it holds is not known
			return errBudget
		}
		if n++; n > max {
			return errBudget
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if p == dir {
			return nil
		}
		name := e.Name()
		if e.IsDir() && name == ".git" {
			found = append(found, gitConfigSecrets(p, rel)...)
			return filepath.SkipDir
		}
		if policy.SecretName(name) {
			found = append(found, rel)
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if e.Type()&fs.ModeSymlink != 0 {
			t, err := os.Readlink(p)
			if r, err2 := filepath.EvalSymlinks(p); err2 == nil {
				t += "/" + r
			}
			if err != nil || hasSecretSegment(t) {
				found = append(found, rel)
			}
		}
		return nil
	})
	if err != nil {
		return found, false
	}
	return found, true
}

func hasSecretSegment(p string) bool {
	for _, seg := range strings.Split(filepath.ToSlash(p), "/") {
		if seg != "" && policy.SecretName(seg) {
			return true
		}
	}
	return false
}

// gitConfigSecrets reports the configuration files of a .git directory
// (and of its submodules) that hold a credential.
func gitConfigSecrets(gitDir, rel string) []string {
	var out []string
	filepath.WalkDir(gitDir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() {
			switch e.Name() {
			case "objects", "refs", "logs", "hooks", "info", "lfs":
				return filepath.SkipDir
			}
			return nil
		}
		if e.Name() != "config" && e.Name() != "credentials" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || credentialLine.Match(b) {
			r, _ := filepath.Rel(gitDir, p)
			out = append(out, rel+"/"+filepath.ToSlash(r))
		}
		return nil
	})
	return out
}

// GitPrograms implements policy.Facts: it reads the configuration of the
// repository containing dir (config, config.worktree, the common
// directory's config, submodules' configs and the files they include) and
// lists the settings that make a read run a program.
func (d Disk) GitPrograms(dir string) ([]string, bool) {
	gitDir, ok := findGitDir(dir)
	if !ok {
		return nil, false
	}
	if gitDir == "" {
		return nil, true
	}
	files := []string{filepath.Join(gitDir, "config"), filepath.Join(gitDir, "config.worktree")}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		files = append(files, filepath.Join(common, "config"))
	}
	// git status and git diff recurse into submodules, which read their
	// own configuration
	filepath.WalkDir(filepath.Join(common, "modules"), func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && (e.Name() == "config" || e.Name() == "config.worktree") {
			files = append(files, p)
		}
		return nil
	})
	var found []string
	hooksPath := ""
	for i, f := range files {
		s, ok := d.configPrograms(f, 0, func(section, key, value string) {
			if i < 3 && section == "core" && key == "hookspath" {
				hooksPath = value
			}
		})
		if !ok {
			return found, false
		}
		found = append(found, s...)
	}
	// an index refresh (git diff) runs post-index-change
	hooks := filepath.Join(common, "hooks")
	if hooksPath != "" {
		hooks = hooksPath
		if strings.HasPrefix(hooks, "~/") && d.Home != "" {
			hooks = filepath.Join(d.Home, hooks[2:])
		} else if !filepath.IsAbs(hooks) {
			if filepath.Base(gitDir) != ".git" {
				return found, false // the work tree's top is not known
			}
			hooks = filepath.Join(filepath.Dir(gitDir), hooks)
		}
	}
	if fi, err := os.Stat(filepath.Join(hooks, "post-index-change")); err == nil && fi.Mode()&0o111 != 0 {
		found = append(found, "hook post-index-change")
	}
	return found, true
}

// findGitDir finds the git directory of the repository containing dir:
// "" outside any repository; ok is false when it cannot be read.
func findGitDir(dir string) (string, bool) {
	for d := filepath.Clean(dir); ; {
		p := filepath.Join(d, ".git")
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return p, true
		case err == nil:
			b, err := os.ReadFile(p)
			if err != nil {
				return "", false
			}
			g, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if !ok {
				return "", false
			}
			g = strings.TrimSpace(g)
			if !filepath.IsAbs(g) {
				g = filepath.Join(d, g)
			}
			return g, true
		case !errors.Is(err, fs.ErrNotExist):
			return "", false
		}
		// a bare repository or the inside of a .git directory
		if filepath.Base(d) == ".git" || fileExists(filepath.Join(d, "HEAD")) && fileExists(filepath.Join(d, "config")) && fileExists(filepath.Join(d, "objects")) {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", true
		}
		d = parent
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// configPrograms lists the program-naming settings in one configuration
// file and the files it includes; a missing file has none.
func (d Disk) configPrograms(file string, depth int, visit func(section, key, value string)) ([]string, bool) {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true
	}
	if err != nil || depth > 5 {
		return nil, false
	}
	defer f.Close()
	var found []string
	section := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return found, false
			}
			section = normaliseSection(line[1:end])
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		key, value, hasValue := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.Trim(strings.TrimSpace(value), `"`)
		if !hasValue {
			value = "true"
		}
		name := section + "." + key
		visit(section, key, value)
		if strings.HasSuffix(line, `\`) {
			// a value continued on the next line: read as a program
			found = append(found, name)
			continue
		}
		switch {
		case name == "include.path" || strings.HasPrefix(section, "includeif.") && key == "path":
			inc := value
			if strings.HasPrefix(inc, "~/") {
				if d.Home == "" {
					return found, false
				}
				inc = filepath.Join(d.Home, inc[2:])
			} else if !filepath.IsAbs(inc) {
				inc = filepath.Join(filepath.Dir(file), inc)
			}
			s, ok := d.configPrograms(inc, depth+1, visit)
			found = append(found, s...)
			if !ok {
				return found, false
			}
		case programSetting(section, key, value):
			found = append(found, name)
		}
	}
	if sc.Err() != nil {
		return found, false
	}
	return found, true
}

// normaliseSection turns `diff "x"` and `diff.x` into "diff.x" (section
// names are case-insensitive, subsections are not).
func normaliseSection(s string) string {
	name, sub, ok := strings.Cut(strings.TrimSpace(s), " ")
	if ok {
		return strings.ToLower(name) + "." + strings.Trim(strings.TrimSpace(sub), `"`)
	}
	if name, sub, ok := strings.Cut(s, "."); ok {
		return strings.ToLower(name) + "." + sub
	}
	return strings.ToLower(s)
}

func isBool(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "1", "0", "":
		return true
	}
	return false
}

// programSetting reports settings that name a program a read (status,
// diff, show, log, blame, grep) may run.
func programSetting(section, key, value string) bool {
	top, _, hasSub := strings.Cut(section, ".")
	switch {
	case top == "filter" && hasSub:
		return key == "clean" || key == "smudge" || key == "process"
	case top == "diff" && hasSub:
		return key == "textconv" || key == "command"
	case section == "diff":
		return key == "external"
	case section == "core":
		return key == "fsmonitor" && !isBool(value) || key == "pager"
	case section == "pager":
		return !isBool(value)
	case top == "gpg":
		return key == "program"
	case section == "log":
		if key != "showsignature" {
			return false
		}
		switch strings.ToLower(value) {
		case "false", "no", "off", "0":
			return false
		}
		return true
	}
	return false
}
