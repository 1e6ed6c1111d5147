package cmdbase

// Containers, clusters and virtual machines. Read verbs of docker,
// podman and kubectl are the safe list (safe_containers.go); here
// are the subcommands that run programs (a rule for them is the exact
// command) and those that destroy what they name.
var _ = registerUnix(Containers, func() []Prog {
	return []Prog{
		{Name: "docker", Is: Subcommands | RunsArgs | Relay | Alarm, Version: []string{"--version", "-v", "--help"},
			Globals: []string{"-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"},
			Subs:    containerSubs("docker")},
		{Name: "podman", Is: Subcommands | RunsArgs | Relay, Version: []string{"--version", "-v", "--help"},
			Globals: []string{"--url", "-c", "--connection", "--root", "--runroot", "--log-level"},
			Subs:    containerSubs("podman")},
		{Name: "kubectl", Is: Subcommands | RunsArgs | Relay | Alarm,
			Globals: []string{"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster", "--user", "--token"},
			Subs: []ProgSub{
				{Name: "exec", Runs: true}, {Name: "run", Runs: true}, {Name: "debug", Runs: true}, {Name: "cp", Runs: true},
				{Name: "apply", Runs: true}, {Name: "patch", Runs: true}, {Name: "replace", Runs: true}, {Name: "edit", Runs: true},
				{Name: "create", Runs: true}, {Name: "plugin", Runs: true},
				{Name: "delete", Runs: true, Danger: "deletes cluster resources"},
				{Name: "drain", Runs: true, Danger: "evicts every pod from a node"},
			}},
		{Name: "oc", Is: Relay,
			Subs: []ProgSub{{Name: "delete", Danger: "deletes cluster resources"}, {Name: "adm drain", Danger: "evicts every pod from a node"}}},
		{Name: "helm", Is: Subcommands, Version: []string{"version"},
			Globals: []string{"-n", "--namespace", "--kube-context", "--kubeconfig"},
			Subs: []ProgSub{
				{Name: "uninstall", Danger: "removes a release and its resources"},
				{Name: "delete", Danger: "removes a release and its resources"},
			}},
		{Name: "machinectl", Is: Relay},
		{Name: "toolbox", Is: Relay},
		{Name: "distrobox", Is: Relay},
		{Name: "lxc", Is: RunsArgs | Relay},
		{Name: "incus", Is: Relay},
		{Name: "vagrant", Is: Subcommands | RunsArgs | Relay,
			Subs: []ProgSub{{Name: "destroy", Danger: "destroys the machine"}}},
		{Name: "virsh", Is: Subcommands,
			Subs: []ProgSub{{Name: "destroy", Danger: "stops a machine at once"}, {Name: "undefine", Danger: "removes a machine"}}},
		{Name: "firejail", Is: RunsArgs},
		{Name: "bwrap", Is: RunsArgs},
		{Name: "fakeroot", Is: RunsArgs},
		{Name: "proot", Is: RunsArgs},
	}
})

// containerSubs are docker's and podman's subcommands that run programs
// or write anywhere through their options, and those that delete.
func containerSubs(name string) []ProgSub {
	subs := []ProgSub{
		{Name: "run", Runs: true}, {Name: "exec", Runs: true}, {Name: "create", Runs: true}, {Name: "cp", Runs: true},
		{Name: "container", Runs: true}, {Name: "compose", Runs: true},
		{Name: "system prune", Runs: true, Danger: "deletes every unused container, image and network"},
		{Name: "volume prune", Runs: true, Danger: "deletes every unused volume"},
		{Name: "volume rm", Runs: true, Danger: "deletes volumes and their data"},
		{Name: "compose down", Runs: true, Danger: "deletes the project's volumes and their data",
			Forms: []Form{{Short: "v", Long: []string{"volumes"}}}},
	}
	if name == "docker" {
		subs = append(subs, ProgSub{Name: "buildx", Runs: true}, ProgSub{Name: "plugin", Runs: true})
	}
	return subs
}
