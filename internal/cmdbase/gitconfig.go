package cmdbase

import "strings"

// git's configuration: the settings of a repository's own configuration
// that make a read of it run a program or fetch, and those that name a
// file git reads and quotes in what it prints or in its errors. The disk
// says which settings a repository has (fsfacts asks git); this says
// what they do.

// gitKey is one rule of git's settings: a section (its first part),
// whether it needs a subsection, a variable name ("" any), and when the
// value makes it count.
type gitKey struct {
	top, section string // section: the whole section ("" any under top)
	sub          bool   // only with a subsection (diff.<driver>.textconv)
	name         string // "" any name
	when         func(value string) bool
	why          string // "" names a program
}

// valueOn: a boolean-looking setting that is on; notBool: a value
// other than a boolean (fsmonitor=/path/hook); always: any value.
func valueOn(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "no", "off", "0", "":
		return false
	}
	return true
}

func notBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "false", "yes", "no", "on", "off", "1", "0", "":
		return false
	}
	return true
}

func always(string) bool { return true }

const partialClone = "the repository is a partial clone: a read may fetch missing objects"

// gitKeys are the settings that make a read unsafe.
var gitKeys = []gitKey{
	{top: "core", section: "core", name: "fsmonitor", when: notBool},
	{top: "core", section: "core", name: "pager", when: always}, {top: "core", section: "core", name: "editor", when: always},
	{top: "core", section: "core", name: "sshcommand", when: always}, {top: "core", section: "core", name: "alternaterefscommand", when: always},
	{top: "core", section: "core", name: "askpass", when: always}, {top: "core", section: "core", name: "gitproxy", when: always},
	{top: "core", section: "core", name: "worktree", when: always, why: "core.worktree puts the work tree elsewhere"},
	{top: "pager", when: notBool},
	{top: "diff", section: "diff", name: "external", when: always},
	{top: "diff", sub: true, name: "textconv", when: always}, {top: "diff", sub: true, name: "command", when: always},
	{top: "merge", sub: true, name: "driver", when: always},
	{top: "filter", sub: true, name: "clean", when: always}, {top: "filter", sub: true, name: "smudge", when: always},
	{top: "filter", sub: true, name: "process", when: always},
	{top: "gpg", name: "program", when: always},
	{top: "log", section: "log", name: "showsignature", when: valueOn, why: "log.showsignature verifies signatures, which runs gpg"},
	{top: "credential", name: "helper", when: always}, {top: "sequence", section: "sequence", name: "editor", when: always},
	{top: "interactive", section: "interactive", name: "difffilter", when: always},
	{top: "uploadpack", section: "uploadpack", name: "packobjectshook", when: always},
	{top: "web", section: "web", name: "browser", when: always},
	{top: "remote", sub: true, name: "uploadpack", when: always}, {top: "remote", sub: true, name: "receivepack", when: always},
	{top: "remote", sub: true, name: "proxy", when: always}, {top: "remote", sub: true, name: "vcs", when: always},
	{top: "remote", sub: true, name: "promisor", when: valueOn, why: partialClone},
	{top: "remote", sub: true, name: "partialclonefilter", when: always, why: partialClone},
	{top: "extensions", section: "extensions", name: "partialclone", when: always, why: partialClone},
	{top: "submodule", name: "update", when: func(v string) bool { return strings.HasPrefix(strings.TrimSpace(v), "!") }},
	{top: "browser", name: "cmd", when: always}, {top: "browser", name: "path", when: always},
	{top: "man", name: "cmd", when: always}, {top: "man", name: "path", when: always},
	{top: "difftool", name: "cmd", when: always}, {top: "difftool", name: "path", when: always},
	{top: "mergetool", name: "cmd", when: always}, {top: "mergetool", name: "path", when: always},
}

// GitConfigRisk says why a setting of a repository's own configuration
// (as git reports it: section and variable names lower-cased, the
// subsection as written) makes a git read unsafe, or "": it names a
// program git may run (a diff driver, a pager, a filter, a lazy fetch's
// transport…), or it gives the repository a layout nb cannot vouch for
// (a work tree elsewhere, a partial clone that fetches missing objects
// when a read needs them).
func GitConfigRisk(key, value string) string {
	section, name := key, ""
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		section, name = key[:i], key[i+1:]
	}
	top, sub, hasSub := strings.Cut(section, ".")
	if top == "include" || top == "includeif" {
		return "" // git reports what the included files set
	}
	for _, k := range gitKeys {
		if k.top != top || k.section != "" && k.section != section || k.sub && !hasSub || k.name != "" && k.name != name {
			continue
		}
		if !k.when(value) {
			return ""
		}
		if k.why != "" {
			return k.why
		}
		return key + " names a program"
	}
	switch {
	case top == "remote" && hasSub && (name == "url" || name == "pushurl") && strings.Contains(value, "::"),
		top == "url" && hasSub && (strings.Contains(sub, "::") || strings.Contains(value, "::")):
		return key + " uses a transport that runs a program"
	case top == "protocol" && name == "allow" && strings.EqualFold(value, "always"):
		return key + " allows transports that run programs"
	case strings.HasSuffix(name, "command") || strings.HasSuffix(name, "cmd"):
		return key + " names a program"
	}
	return ""
}

// gitFileKeys are settings whose value names a file a git read opens
// and may quote in what it prints or in an error (blame's list of
// revisions to ignore, the attributes and exclude files, the mailmap,
// diff's order file).
var gitFileKeys = map[string]bool{
	"blame.ignorerevsfile": true, "core.attributesfile": true, "core.excludesfile": true, "mailmap.file": true,
	"diff.orderfile": true, "core.hookspath": true, "commit.template": true, "gpg.ssh.allowedsignersfile": true,
}

// GitFileKey reports a setting (key lower-cased as git reports it) whose
// value names a file a git read opens.
func GitFileKey(key string) bool { return gitFileKeys[strings.ToLower(key)] }

// gitOwnFiles are the files of a git directory that every read may open
// and quote when they are not what git expects: the packed refs, the
// shallow list, the alternates, attributes and excludes, the state of a
// rebase, merge, cherry-pick or bisect in progress.
var gitOwnFiles = []string{"packed-refs", "shallow", "objects/info/alternates", "objects/info/http-alternates",
	"info/attributes", "info/exclude", "info/grafts", "HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "MERGE_MSG",
	"CHERRY_PICK_HEAD", "REVERT_HEAD", "BISECT_LOG", "BISECT_TERMS", "commondir", "rebase-merge", "rebase-apply",
	"sequencer", "logs/HEAD"}

// GitOwnFiles are the files (and directories, whose files count too) of
// a git directory every read may open, relative to it.
func GitOwnFiles() []string { return gitOwnFiles }
