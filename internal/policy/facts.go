package policy

import (
	"path"
	"strings"
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
	// a credential), as slash-separated paths relative to dir. complete
	// is false when the tree could not be looked through entirely (too
	// large, unreadable): then it may hold more.
	SecretFiles(dir string) (files []string, complete bool)
	// GitPrograms lists the settings of the git repository containing
	// dir, from the repository's own configuration (not the user's), that
	// make a read such as git status, git diff or git log -p run a
	// program (filter.*.clean, diff.*.textconv, diff.external…). complete
	// is false when they cannot be known. Outside a repository it returns
	// nothing, complete.
	GitPrograms(dir string) (settings []string, complete bool)
}

// NoFacts is a Facts for a filesystem known to hold no secret files and
// no repository configuring programs (tests, fixtures).
type NoFacts struct{}

// SecretFiles implements Facts.
func (NoFacts) SecretFiles(string) ([]string, bool) { return nil, true }

// GitPrograms implements Facts.
func (NoFacts) GitPrograms(string) ([]string, bool) { return nil, true }

// treeSecrets says why reading dir recursively may show a secret, or "".
// hidden says whether the reader looks into hidden files and directories
// (rg does not by default).
func treeSecrets(cc CommandContext, dir string, hidden bool) string {
	if cc.Facts == nil {
		return "nothing is known about the files below " + dir
	}
	files, complete := cc.Facts.SecretFiles(dir)
	if !complete {
		return dir + " is too large to know whether it holds secret files"
	}
	for _, f := range files {
		if !hidden && hiddenPath(f) {
			continue
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

// gitPrograms says why a git read in dir may run a program the
// repository configures, or "".
func gitPrograms(cc CommandContext, dir string) string {
	if cc.Facts == nil {
		return "the configuration of the repository in " + dir + " is not known"
	}
	settings, complete := cc.Facts.GitPrograms(path.Clean(dir))
	if !complete {
		return "the configuration of the repository in " + dir + " cannot be read"
	}
	if len(settings) > 0 {
		return "the repository configures a program git would run (" + strings.Join(settings, ", ") + ")"
	}
	return ""
}
