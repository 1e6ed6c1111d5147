package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/nb-cli/nb/internal/secrets"
)

// Facts answers questions about the filesystem a command runs on. The
// engine reads nothing itself: the caller supplies facts through
// CommandContext.Facts (package fsfacts reads them from the local disk).
// Without facts (nil), whatever needs one is asked: a recursive read of a
// tree that may hold secret files, a git read in a repository whose own
// configuration may name programs.
type Facts interface {
	// SecretFiles lists the files below dir whose content may be a secret
	// (.env files, private keys, credential files, a .git/config holding
	// a credential), as slash-separated paths relative to dir; a path
	// ending in "/" is a symbolic link to a directory outside the tree,
	// which only readers following links enter. complete is false when
	// the tree could not be looked through entirely (too large,
	// unreadable): then it may hold more.
	SecretFiles(dir string) (files []string, complete bool)
	// GitRepo says what the disk holds of the git repository a command
	// in dir reaches and of its submodules: the settings of their own
	// configuration as git reports them (not the user's), the hooks an
	// index refresh runs, and git's own files that are links (symbolic,
	// or hard links to a file with other names). The policy judges them
	// (cmdbase.GitConfigRisk, cmdbase.GitFileKey). complete is false when
	// they cannot be known. Outside a repository it returns nothing,
	// complete.
	GitRepo(dir string) (repo GitRepo, complete bool)
	// GitSecrets lists the files of the git repository containing dir
	// whose names say they hold secret values (secrets.ValueFile) and
	// whose content git can print: tracked in the index or committed in
	// its history, as absolute slash-separated paths below the top of the
	// work tree (relative ones in a repository without a work tree).
	// complete is false when they cannot be known. Outside a repository
	// it returns nothing, complete.
	GitSecrets(dir string) (files []string, complete bool)
	// Resolve says where the absolute path p leads as the kernel resolves
	// it at this moment: every symbolic link followed, and ".." taken
	// after the link it follows (not lexically). A path whose tail does
	// not exist resolves as far as it exists and keeps the rest.
	Resolve(p string) (target string, state PathState)
	// Toolchain says why the program prog, run in the absolute directory
	// dir, may fetch and run another release of itself that the
	// project's files ask for (go's toolchain switch, a version manager's
	// shim that installs on first use), or write its own records, or "".
	Toolchain(prog, dir string) string
	// SecretContent reports whether the file at the absolute path p
	// (links followed) holds what has the shape of a secret whatever its
	// name: a private key, a cloud service-account key.
	SecretContent(p string) bool
	// Glob lists the words bash, with its default options, generates
	// from the unquoted pattern (only literal characters and * ? [...])
	// for a command running in the absolute directory dir: paths
	// relative to dir (absolute for an absolute pattern), never fewer
	// than bash's; nil when nothing matches (bash then passes the
	// pattern itself). complete is false when they cannot be known
	// exactly (too many, unreadable, a pattern not modelled).
	Glob(dir, pattern string) (words []string, complete bool)
	// PlainNames reports that no name below the absolute directory dir
	// (recursively, links not followed) holds a blank, a quote, a
	// backslash, * ? [ or a control character, or begins with "-":
	// split as words (find | xargs, $(find …)) each stays itself; false
	// when it cannot be told (too large, unreadable, missing).
	PlainNames(dir string) bool
	// PathProgram says why a command name, looked up in the PATH
	// commands run with from the absolute directory dir, may be a file of
	// dir's own tree rather than an installed program (PATH holds a
	// relative entry such as "." or "node_modules/.bin" under which dir
	// has the name), or "".
	PathProgram(dir, name string) string
	// LocalProgram reports whether dir holds a program (name, or name
	// with a PATHEXT extension) that cmd.exe, which runs a program of
	// the current directory before any on PATH, would run for a bare
	// name instead of the system's.
	LocalProgram(dir, name string) bool
	// Links says what the regular file at the absolute path p is when
	// it has several names (hard links): the secret file it is another
	// name of, or several alone when its other names are not known (or
	// whether it has them cannot be told). A file with one name, or
	// what is not a regular file, has several false.
	Links(p string) (secret string, several bool)
}

// GitRepo is what the disk holds of a git repository (Facts.GitRepo).
type GitRepo struct {
	// Settings are the repository's own configuration and its
	// submodules' (local and worktree scopes, and the files they
	// include), as git reports them.
	Settings []GitSetting
	// Hooks are the hooks a read that refreshes the index would run
	// (post-index-change).
	Hooks []string
	// Links are git's own files (cmdbase.GitOwnFiles, relative to the
	// git directory) that are symbolic links, or hard links of a file
	// with other names: what git reads there is another file.
	Links []string
}

// GitSetting is one setting as git reports it: the key lower-cased
// except its subsection, the value.
type GitSetting struct {
	Key, Value string
	// Submodule names the submodule whose configuration holds it (""
	// for the repository's own).
	Submodule string
	// Inside says a path the setting gives (a submodule's core.worktree)
	// leads inside the superproject's work tree.
	Inside bool
}

// PathState is what Facts.Resolve knows about a path.
type PathState int

const (
	// PathUnknown: where the path leads cannot be told (a link loop, an
	// unreadable directory); target is not to be trusted.
	PathUnknown PathState = iota
	// PathMissing: the path does not exist (yet).
	PathMissing
	// PathExists: the path exists and target is where it leads.
	PathExists
)

// NoFacts is a Facts for a filesystem known to hold no secret files and
// no repository configuring programs (tests, fixtures). Its names are
// not known to be plain (a fixture's are not: the adversarial corpora
// keep ls | xargs cat asked there).
type NoFacts struct{}

// PlainNames implements Facts: not known.
func (NoFacts) PlainNames(string) bool { return false }

// PathProgram implements Facts: no directory is on PATH.
func (NoFacts) PathProgram(string, string) string { return "" }

// Links implements Facts: every file has one name.
func (NoFacts) Links(string) (string, bool) { return "", false }

// SecretFiles implements Facts.
func (NoFacts) SecretFiles(string) ([]string, bool) { return nil, true }

// LocalProgram implements Facts: no directory holds programs.
func (NoFacts) LocalProgram(string, string) bool { return false }

// GitRepo implements Facts: no repository.
func (NoFacts) GitRepo(string) (GitRepo, bool) { return GitRepo{}, true }

// GitSecrets implements Facts.
func (NoFacts) GitSecrets(string) ([]string, bool) { return nil, true }

// SecretContent implements Facts.
func (NoFacts) SecretContent(string) bool { return false }

// Glob implements Facts: no pattern matches (the word stays as written).
func (NoFacts) Glob(string, string) ([]string, bool) { return nil, true }

// Toolchain implements Facts: no project asks for another release.
func (NoFacts) Toolchain(string, string) string { return "" }

// Resolve implements Facts: every path exists and is what it says.
func (NoFacts) Resolve(p string) (string, PathState) { return path.Clean(p), PathExists }

// UnknownFacts are the facts of a disk nb cannot look at (a fleet's
// remote hosts): every path may lead anywhere, every tree may hold
// secrets, every repository may configure programs, and a glob may
// match anything. Local facts never stand for another machine's: what
// a command there reads is judged as a read of unknown files.
type UnknownFacts struct{}

// SecretFiles implements Facts: not known.
func (UnknownFacts) SecretFiles(string) ([]string, bool) { return nil, false }

// GitRepo implements Facts: not known.
func (UnknownFacts) GitRepo(string) (GitRepo, bool) { return GitRepo{}, false }

// GitSecrets implements Facts: not known.
func (UnknownFacts) GitSecrets(string) ([]string, bool) { return nil, false }

// Resolve implements Facts: where a path leads cannot be told.
func (UnknownFacts) Resolve(string) (string, PathState) { return "", PathUnknown }

// Toolchain implements Facts: a program the base says a project may
// switch is judged as in a directory nb has not looked at (remote), any
// other as found on the host's own PATH.
func (UnknownFacts) Toolchain(string, string) string { return "" }

// SecretContent implements Facts: a file there may hold anything.
func (UnknownFacts) SecretContent(string) bool { return true }

// Glob implements Facts: what a pattern matches there is not known.
func (UnknownFacts) Glob(string, string) ([]string, bool) { return nil, false }

// PlainNames implements Facts: not known.
func (UnknownFacts) PlainNames(string) bool { return false }

// PathProgram implements Facts: a name is found through the host's own
// PATH.
func (UnknownFacts) PathProgram(string, string) string { return "" }

// LocalProgram implements Facts: not cmd.exe's.
func (UnknownFacts) LocalProgram(string, string) bool { return false }

// Links implements Facts: not known.
func (UnknownFacts) Links(string) (string, bool) { return "", true }

// memoFacts remembers the answers of one decision's facts: a decision may
// ask about the same directory for many leaves, and the remedy search
// decides again.
type memoFacts struct {
	f       Facts
	home    string // for the notes' paths
	secrets memo[memoList]
	repos   memo[memoRepo]
	gitSec  memo[memoList]
	paths   memo[memoPath]
	globs   memo[memoList]
	content memo[bool]
	chains  memo[string]
	paths1  memo[string] // PathProgram, by dir and name
	plain   memo[bool]
	local   memo[bool] // LocalProgram, by dir and name
	links   memo[memoLink]
	// notes explain what the facts found (Links)
	notes []string
}

type memoLink struct {
	secret  string
	several bool
}

// memo holds the answers of one kind of fact, by one or two strings,
// made when first needed (most decisions ask little): a few in a list,
// more in a map.
type memo[V any] *memoTable[V]

type memoTable[V any] struct {
	n    int
	few  [4]memoEntry[V]
	many map[memoKey]V
}

type memoKey struct{ a, b string }

type memoEntry[V any] struct {
	key memoKey
	v   V
}

type memoRepo struct {
	repo     GitRepo
	complete bool
}

type memoList struct {
	list     []string
	complete bool
}

type memoPath struct {
	target string
	state  PathState
}

func memoize(f Facts, home string) Facts {
	switch f.(type) {
	case nil, *memoFacts:
		return f
	}
	return &memoFacts{f: f, home: home}
}

// remember returns the answer kept in m for key, asking get the first
// time.
func remember[V any](m *memo[V], a, b string, get func() V) V {
	t := (*memoTable[V])(*m)
	key := memoKey{a, b}
	switch {
	case t == nil:
	case t.many != nil:
		if v, ok := t.many[key]; ok {
			return v
		}
	default:
		for i := 0; i < t.n; i++ {
			if t.few[i].key == key {
				return t.few[i].v
			}
		}
	}
	v := get()
	if t == nil {
		t = &memoTable[V]{}
		*m = t
	}
	switch {
	case t.many != nil:
		t.many[key] = v
	case t.n < len(t.few):
		t.few[t.n] = memoEntry[V]{key, v}
		t.n++
	default:
		t.many = make(map[memoKey]V, 2*len(t.few))
		for _, e := range t.few {
			t.many[e.key] = e.v
		}
		t.many[key] = v
	}
	return v
}

func rememberList(m *memo[memoList], key string, get func() ([]string, bool)) ([]string, bool) {
	v := remember(m, key, "", func() memoList {
		l, c := get()
		return memoList{l, c}
	})
	return v.list, v.complete
}

func (m *memoFacts) SecretFiles(dir string) ([]string, bool) {
	return rememberList(&m.secrets, dir, func() ([]string, bool) { return m.f.SecretFiles(dir) })
}

func (m *memoFacts) GitRepo(dir string) (GitRepo, bool) {
	v := remember(&m.repos, dir, "", func() memoRepo {
		r, c := m.f.GitRepo(dir)
		return memoRepo{r, c}
	})
	return v.repo, v.complete
}

func (m *memoFacts) GitSecrets(dir string) ([]string, bool) {
	return rememberList(&m.gitSec, dir, func() ([]string, bool) { return m.f.GitSecrets(dir) })
}

func (m *memoFacts) SecretContent(p string) bool {
	return remember(&m.content, p, "", func() bool { return m.f.SecretContent(p) })
}

func (m *memoFacts) Glob(dir, pattern string) ([]string, bool) {
	v := remember(&m.globs, dir, pattern, func() memoList {
		l, c := m.f.Glob(dir, pattern)
		return memoList{l, c}
	})
	return v.list, v.complete
}

func (m *memoFacts) PathProgram(dir, name string) string {
	return remember(&m.paths1, dir, name, func() string { return m.f.PathProgram(dir, name) })
}

func (m *memoFacts) LocalProgram(dir, name string) bool {
	return remember(&m.local, dir, name, func() bool { return m.f.LocalProgram(dir, name) })
}

// Links implements Facts, and keeps what it found for the decision's
// reasons (linkNotes).
func (m *memoFacts) Links(p string) (string, bool) {
	v := remember(&m.links, p, "", func() memoLink {
		secret, several := m.f.Links(p)
		return memoLink{secret, several}
	})
	switch {
	case v.secret != "":
		m.note(fmt.Sprintf("%s is another name of %s, a secret file", p, secrets.Shown(v.secret, m.home)))
	case v.several:
		m.note(p + " has several hard links whose other names nb does not know")
	}
	return v.secret, v.several
}

// note keeps a line for the decision's reasons, once.
func (m *memoFacts) note(line string) {
	if !slices.Contains(m.notes, line) {
		m.notes = append(m.notes, line)
	}
}

// linkNotes are the lines the facts of a decision found to explain it
// (a hard link of a secret file), for a command that is not allowed.
func linkNotes(f Facts) []string {
	if m, ok := f.(*memoFacts); ok {
		return m.notes
	}
	return nil
}

func (m *memoFacts) PlainNames(dir string) bool {
	return remember(&m.plain, dir, "", func() bool { return m.f.PlainNames(dir) })
}

func (m *memoFacts) Toolchain(prog, dir string) string {
	return remember(&m.chains, prog, dir, func() string { return m.f.Toolchain(prog, dir) })
}

func (m *memoFacts) Resolve(p string) (string, PathState) {
	v := remember(&m.paths, p, "", func() memoPath {
		t, s := m.f.Resolve(p)
		return memoPath{t, s}
	})
	return v.target, v.state
}

// joinRaw joins a path as written to the directory it is opened from,
// without cleaning: the kernel takes ".." after the links before it.
func joinRaw(cwd, p string) string {
	p = slashPath(p)
	if strings.HasPrefix(p, "/") || drivePath(p) || cwd == "" {
		return p
	}
	return strings.TrimSuffix(cwd, "/") + "/" + p
}

// realPath says where p, written in a command running in cc.Cwd, leads
// on the disk: "" when it is where it says (or there is no directory to
// resolve it from); state is PathUnknown when the facts cannot tell or
// there are none.
func realPath(cc CommandContext, p string) (target string, state PathState) {
	if cc.Facts == nil || p == "" {
		return "", PathUnknown
	}
	raw := joinRaw(cc.Cwd, p)
	if !strings.HasPrefix(raw, "/") && !drivePath(raw) {
		return "", PathExists // no directory to resolve it from: judged as written
	}
	t, st := cc.Facts.Resolve(raw)
	if st == PathUnknown {
		return "", st
	}
	if t = slashPath(t); t == absPath(p, cc.Cwd) {
		return "", st
	}
	return t, st
}

// secretPath is sensitivePath for a path as the kernel will open it from
// cc.Cwd: the path as written, and where its links lead. A path whose
// links cannot be followed counts as secret.
func (e *Engine) secretPath(cc CommandContext, p string, glob bool) bool {
	if e.sensitivePath(p, cc.Cwd, glob) || p != "" && homeSecret(absPath(p, cc.Cwd), cc.Home, glob) {
		// a secret by its name, unless it is documentation there
		return glob || !e.docInSecrets(cc, p)
	}
	if glob || cc.Facts == nil || p == "" {
		return false
	}
	t, st := realPath(cc, p)
	if st == PathUnknown { // where it leads cannot be told: a secret
		return true
	}
	if t != "" && (e.sensitivePath(t, "", false) || homeSecret(t, cc.Home, false)) {
		return true
	}
	if st == PathExists {
		target := t
		if target == "" {
			target = absPath(p, cc.Cwd)
		}
		// a file with other names may be a secret under another one: its
		// own name proves nothing
		if secret, several := cc.Facts.Links(target); secret != "" || several {
			return true
		}
		return cc.Facts.SecretContent(target)
	}
	return false
}

// reachesSecret reports whether reading dir (as written, from cc.Cwd)
// recursively reaches secrets, judged where it is written and where its
// links lead.
func (e *Engine) reachesSecret(cc CommandContext, dir string) bool {
	if e.containsSensitive(absPath(dir, cc.Cwd), cc.Home) {
		return true
	}
	t, st := realPath(cc, dir)
	if st == PathUnknown && cc.Facts != nil {
		return true
	}
	return t != "" && e.containsSensitive(t, cc.Home)
}

// treeSecrets says why reading dir recursively may show a secret, or "".
// hidden says whether the reader looks into hidden files and directories
// (rg does not by default).
func treeSecrets(cc CommandContext, dir string, hidden bool) string {
	return treeSecretsFollow(cc, dir, hidden, true)
}

// treeSecretsFollow is treeSecrets for a reader that follows the links
// it meets below dir (grep -R, rg -L, find -L) or not.
func treeSecretsFollow(cc CommandContext, dir string, hidden, follow bool) string {
	if cc.Facts == nil {
		return "nothing is known about the files below " + dir
	}
	walk := absPath(dir, cc.Cwd)
	t, st := realPath(cc, dir)
	switch st {
	case PathMissing:
		return dir + " does not exist (yet): what it will hold is not known"
	case PathUnknown:
		return "where " + dir + " leads cannot be told"
	}
	if t != "" {
		walk = t
	}
	files, complete := cc.Facts.SecretFiles(walk)
	if !complete {
		return dir + " is too large to know whether it holds secret files"
	}
	for _, f := range files {
		if !hidden && hiddenPath(f) || !follow && strings.HasSuffix(f, "/") {
			continue
		}
		if strings.HasSuffix(f, "/") {
			return dir + " links to a directory outside it (" + strings.TrimSuffix(f, "/") + ")"
		}
		return dir + " holds " + f
	}
	return ""
}

func hiddenPath(rel string) bool {
	for seg := range strings.SplitSeq(rel, "/") {
		if strings.HasPrefix(seg, ".") && seg != "." && seg != ".." {
			return true
		}
	}
	return false
}

// systemTarget is systemPath for a path written in a command running in
// cc.Cwd, judged where it is written and where its links lead (a link
// in the project to ~/.bashrc is a startup file).
func systemTarget(cc CommandContext, p string) bool {
	if p == "" {
		return false
	}
	if systemPath(absPath(p, cc.Cwd), cc.Home) {
		return true
	}
	t, _ := realPath(cc, p)
	return t != "" && systemPath(t, cc.Home)
}

// drivePath reports whether p starts with a drive letter (C:\ or C:/): an
// absolute Windows path as written where the host does not spell it the
// policy's way (a Windows shell's paths judged on another system).
func drivePath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && isLetter(p[0]) && (p[2] == '\\' || p[2] == '/')
}
