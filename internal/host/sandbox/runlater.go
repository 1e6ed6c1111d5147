package sandbox

// RunLater are entries of a workspace that programs run outside the
// sandbox later read as code, or as settings naming programs to run, on
// their own: when the user next commits, opens the folder, enters the
// directory or runs the tool. Existing ones are read-only inside the
// workspace sandbox, at any depth (a nested repository, a subproject's
// .envrc); new ones a command creates are moved to the quarantine after
// it (quarantine.go). A name holding a slash is a path below a directory.
// Directories are marked by runLaterDirs, for covering one that does not
// exist yet.
//
// Add an entry when a tool is found to load a file of the project on its
// own; the canary tests (runlater_test.go) plant every entry.
var RunLater = []string{
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

// runLaterDirs are the RunLater entries that are directories, covered by
// an empty directory (the others by an empty file) when they must be
// protected before they exist.
var runLaterDirs = map[string]bool{
	".git": true, ".hg": true, ".husky": true, ".githooks": true, ".lefthook": true, ".mise": true,
	".config/mise": true, ".cargo": true, ".mvn": true, "gradle/wrapper": true, ".vscode": true, ".idea": true,
	".fleet": true, ".zed": true, ".helix": true, ".devcontainer": true, ".claude": true, ".gemini": true,
}
