package cmdbase

// git. Its read-only subcommands and options, the settings that make a
// read run a program and the forms that destroy work are judged by
// the safe list (safe_git.go) and the policy's git facts (policy/gitfacts.go), which asks git itself
// about a repository's configuration.
var _ = registerUnix(Git, []Prog{
	{Name: "git", Is: Subcommands | Checked, Outputs: []Output{{Long: "output"}},
		Globals: []string{"-C", "-c", "--config-env", "--exec-path", "--git-dir", "--work-tree", "--namespace",
			"--super-prefix", "--list-cmds", "--attr-source"},
		Subs: []ProgSub{
			{Name: "config", Runs: true}, {Name: "rebase", Runs: true}, {Name: "bisect", Runs: true},
			{Name: "submodule", Runs: true}, {Name: "difftool", Runs: true}, {Name: "mergetool", Runs: true},
			{Name: "filter-branch", Runs: true}, {Name: "filter-repo", Runs: true}, {Name: "daemon", Runs: true},
			{Name: "instaweb", Runs: true}, {Name: "credential", Runs: true},
		}},
})
