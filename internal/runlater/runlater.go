// Package runlater names the entries of a workspace that programs run
// later, outside nb, read as code or as settings naming programs: git's
// repository, direnv, editors' and dev containers' settings, hook
// managers. The sandbox keeps them read-only; the policy asks before a
// file tool writes one, whatever the approval mode.
package runlater

import "strings"

// Names are the entry names, matched as a whole path component.
var Names = []string{
	".git", ".envrc", ".vscode", ".idea", ".devcontainer", ".husky", ".githooks",
	".pre-commit-config.yaml", ".gitmodules", ".gitattributes", "lefthook.yml", ".lefthook.yml",
	"mise.toml", ".mise.toml", ".tool-versions",
}

// Entry returns the component of path (either separator) that is one of
// Names, or "".
func Entry(path string) string {
	for _, seg := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' }) {
		for _, n := range Names {
			if strings.EqualFold(seg, n) {
				return n
			}
		}
	}
	return ""
}
