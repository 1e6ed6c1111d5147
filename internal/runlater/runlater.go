// Package runlater names the entries of a workspace that programs run
// later, outside nb, read as code or as settings naming programs to run,
// on their own: when the user next commits, opens the folder, enters the
// directory or runs the tool (git's repository, direnv, hook managers,
// version managers, build tools' settings, editors and dev containers,
// coding agents' settings). The sandbox keeps them read-only at any depth;
// the policy asks before a file tool writes one, whatever the approval
// mode.
//
// Add an entry when a tool is found to load a file of the project on its
// own; the sandbox's canary tests plant every entry.
package runlater

import "strings"

// Names are the entries, matched as whole path components; a name holding
// a slash is a path below a directory (gradle/wrapper).
var Names = []string{
	// git: the repository (hooks, config, info/attributes, alternates),
	// its submodules and filters, git-lfs's transfer agents
	".git", ".gitmodules", ".gitattributes", ".lfsconfig",
	// Mercurial: the repository's hgrc names hooks
	".hg",
	// direnv runs .envrc on entering the directory
	".envrc",
	// hook managers and what they run at commit
	".husky", ".githooks", ".pre-commit-config.yaml",
	"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml",
	"lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yml", ".lefthook-local.yaml", ".lefthook",
	".simple-git-hooks.json", ".simple-git-hooks.cjs", ".simple-git-hooks.js", "simple-git-hooks.json", "simple-git-hooks.cjs", "simple-git-hooks.js",
	".lintstagedrc", ".lintstagedrc.json", ".lintstagedrc.yaml", ".lintstagedrc.yml", ".lintstagedrc.js", ".lintstagedrc.cjs", ".lintstagedrc.mjs",
	"lint-staged.config.js", "lint-staged.config.cjs", "lint-staged.config.mjs",
	// version managers: mise and asdf install and run the tools pinned
	// (mise's tasks and env run commands); rustup runs the toolchain a
	// rust-toolchain file names, a custom one by its path
	"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", ".mise", "mise/config.toml", ".rtx.toml",
	".config/mise.toml", ".config/mise", ".tool-versions", "rust-toolchain", "rust-toolchain.toml",
	// build tools' own settings that run programs: cargo's
	// rustc-wrapper and runners, npm's script-shell and node-options,
	// yarn's yarnPath, pnpm's install hooks, bazel's rc, Maven's
	// extensions and JVM options, Gradle's wrapper download
	".cargo", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", ".bazelrc", ".mvn", "gradle/wrapper",
	// editors and dev containers: tasks run when the folder opens,
	// language servers and local configuration they load
	".vscode", ".idea", ".fleet", ".zed", ".helix", ".devcontainer", ".devcontainer.json",
	".nvim.lua", ".nvimrc", ".exrc", ".lvimrc", ".dir-locals.el", ".dir-locals-2.el",
	// coding agents' project settings, whose hooks run commands
	".claude", ".gemini",
}

// Dirs are the Names that are directories: covered by an empty directory
// (the others by an empty file) when they must be protected before they
// exist.
var Dirs = map[string]bool{
	".git": true, ".hg": true, ".husky": true, ".githooks": true, ".lefthook": true, ".mise": true,
	".config/mise": true, ".cargo": true, ".mvn": true, "gradle/wrapper": true, ".vscode": true, ".idea": true,
	".fleet": true, ".zed": true, ".helix": true, ".devcontainer": true, ".claude": true, ".gemini": true,
}

// Entry returns the entry of Names that path (either separator) holds as
// whole components, or "".
func Entry(path string) string {
	segs := strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' })
	for _, n := range Names {
		want := strings.Split(n, "/")
		for i := 0; i+len(want) <= len(segs); i++ {
			if componentsEqual(segs[i:i+len(want)], want) {
				return n
			}
		}
	}
	return ""
}

func componentsEqual(a, b []string) bool {
	for i := range b {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}
