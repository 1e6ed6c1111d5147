package cmdbase

import (
	"regexp"
	"strings"
)

// Containers and clusters (cmdbase/unix_containers.go). docker and podman
// talk to the local daemon; kubectl reads the cluster of the user's own
// kubeconfig (its read verbs are allowed like any read, remove them with
// "!kubectl"); options naming another daemon, server or credentials
// (docker -H, kubectl --server/--token/--kubeconfig) are never safe.
var _ = registerSafe(Containers, safeContainers)

// safeContainers is built on first use (safeTables).
var safeContainers = func() map[string]safeCmd {
	return map[string]safeCmd{
		// machinectl lists machines and images (shell, login and start act)
		"machinectl": {args: &argSpec{flags: "a", verbs: []string{"", "list", "list-images"}, operands: opNone,
			longs: ltLongs("all", "no-pager", "no-legend", "full", "output=")}},

		"docker": {check: dockerRead},
		// helm's listings of the user's own cluster (as kubectl's reads;
		// get values and get manifest may print secrets)
		"helm": {args: &argSpec{flags: "Aaq", values: "nmo", verbs: []string{"list", "ls", "version", "history", "hist", "status"}, operands: opNames,
			longs: ltLongs("all-namespaces", "all", "namespace=", "kube-context=", "output=", "max=", "short", "date", "reverse",
				"deployed", "failed", "pending", "superseded", "uninstalled", "uninstalling", "filter=", "selector=", "time-format=",
				"no-headers", "revision=", "show-desc", "show-resources", "template=")}},
		"podman":  {check: dockerRead},
		"kubectl": {check: kubectlRead},
	}
}

// dockerRead accepts the verbs of docker and podman that only read.
func dockerRead(ws []word) string {
	i, why := verbAfter(ws, map[string]bool{"-l": true, "--log-level": true}, "-H", "--host", "-c", "--context", "--config", "--tlscacert", "--tlscert", "--tlskey", "--url", "--connection", "--remote", "-r", "--identity")
	if why != "" {
		return "docker " + why
	}
	if i >= len(ws) {
		return "docker without a command"
	}
	verb, rest := ws[i].Text, ws[i+1:]
	if verb == "--version" || verb == "-v" {
		return ""
	}
	// docker image ls, docker container inspect, docker compose ps…
	if (verb == "container" || verb == "image" || verb == "network" || verb == "volume" || verb == "system" || verb == "context" || verb == "compose") && len(rest) > 0 {
		verb, rest = verb+" "+rest[0].Text, rest[1:]
	}
	switch verb {
	case "ps", "images", "version", "info", "logs", "port", "top", "history", "diff", "stats",
		"container ls", "container list", "container ps", "container logs", "container port", "container top", "container diff", "container stats",
		"image ls", "image list", "image history", "network ls", "network list", "volume ls", "volume list", "system df", "context ls", "context list", "context show",
		"compose ps", "compose ls", "compose images", "compose version":
		if verb == "stats" || verb == "container stats" {
			if !AnyWord(rest, "--no-stream") {
				return "docker stats without --no-stream never ends"
			}
		}
		if (verb == "top" || verb == "container top") && len(rest) > 1 {
			// the words after the container are ps(1)'s options, run
			// on the container's processes: ps e shows their environment
			if why := psCheck(rest[1:]); why != "" {
				return "docker top: " + why
			}
		}
		return ""
	case "inspect", "container inspect", "image inspect", "network inspect", "volume inspect":
		// the container's environment often holds passwords: only a
		// --format that leaves out Env and Config is read-only
		// docker takes the last --format given: every one must leave
		// the environment out
		formats := OptionValues(rest, 'f', "f", "format")
		for _, v := range formats {
			if strings.Contains(v, "Env") || strings.Contains(v, "Config") || strings.Contains(v, "json .") || v == "{{json .}}" || !strings.Contains(v, "{{") ||
				wholeObject.MatchString(v) {
				return "docker inspect shows the environment, which may hold secrets"
			}
		}
		if len(formats) == 0 {
			return "docker inspect shows the environment, which may hold secrets"
		}
		return ""
	}
	return "docker " + verb + " is not known to be read-only"
}

// wholeObject matches a Go template that names the whole object (a bare
// "." or "$": {{.}}, {{printf "%v" .}}, {{range $k, $v := .}}), which
// prints the environment with the rest.
var wholeObject = regexp.MustCompile(`(^|[^\w\])])\.($|[^\w])|\$($|[^\w])`)

// kubectlNever are kubectl's options, global ones included (pflag takes
// them before or after the verb, and klog's with _ for -), that point it
// at another server or credentials, write a file (a CPU profile, a log,
// a cache elsewhere), or read objects from local manifests.
var kubectlNever = map[string]bool{
	"-s": true, "--server": true, "--kubeconfig": true, "--token": true, "--username": true, "--password": true,
	"--as": true, "--as-group": true, "--as-uid": true, "--certificate-authority": true, "--client-key": true,
	"--client-certificate": true, "--insecure-skip-tls-verify": true, "--tls-server-name": true,
	"--profile": true, "--profile-output": true, "--log-file": true, "--log-dir": true, "--cache-dir": true,
	"--raw": true, "--flatten": true, "--output-directory": true,
	// klog writes its logs to files in the temporary directory unless
	// they go to standard error
	"--logtostderr": true,
	// objects named by local manifests may be secrets
	"-f": true, "--filename": true, "-k": true, "--kustomize": true,
}

// kubectlRead accepts kubectl's read verbs on the user's own cluster.
func kubectlRead(ws []word) string {
	for _, w := range ws {
		if w.Text == "--" {
			break
		}
		name, _, _ := strings.Cut(w.Text, "=")
		if strings.HasPrefix(name, "--") {
			name = "--" + strings.ReplaceAll(name[2:], "_", "-")
		}
		if kubectlNever[name] {
			return "kubectl " + name + " is not known to be read-only"
		}
	}
	i, why := verbAfter(ws, map[string]bool{"-n": true, "--namespace": true, "--context": true, "--cluster": true, "--user": true, "-v": true, "--v": true, "-l": true, "-o": true, "-c": true},
		"-s", "--server", "--kubeconfig", "--token", "--username", "--password", "--as", "--as-group", "--certificate-authority", "--client-key", "--client-certificate", "--insecure-skip-tls-verify", "--tls-server-name")
	if why != "" {
		return "kubectl " + why
	}
	if i >= len(ws) {
		return "kubectl without a command"
	}
	verb, rest := ws[i].Text, ws[i+1:]
	for _, w := range rest {
		name, _, _ := strings.Cut(w.Text, "=")
		switch name {
		case "-s", "--server", "--kubeconfig", "--token", "--username", "--password", "--as", "--as-group", "--raw", "--flatten", "--output-directory",
			// objects named by local manifests may be secrets
			"-f", "--filename", "-k", "--kustomize":
			return "kubectl " + name + " is not known to be read-only"
		}
		if strings.Contains(w.Text, "go-template-file") || strings.Contains(w.Text, "jsonpath-file") || strings.Contains(w.Text, "custom-columns-file") {
			return "kubectl reads a template file"
		}
	}
	secret := func() bool {
		for _, w := range rest {
			if strings.Contains(strings.ToLower(w.Text), "secret") {
				return true
			}
		}
		return false
	}
	switch verb {
	case "get", "describe":
		if secret() {
			return "kubectl " + verb + " secrets shows credentials"
		}
		return ""
	case "logs", "top", "version", "api-resources", "api-versions", "explain", "events", "cluster-info":
		if verb == "cluster-info" && len(rest) > 0 && rest[0].Text == "dump" {
			return "kubectl cluster-info dump is not known to be read-only"
		}
		return ""
	case "config":
		if len(rest) > 0 {
			switch rest[0].Text {
			case "view", "current-context", "get-contexts", "get-clusters", "get-users":
				return ""
			}
		}
		return "kubectl config changes the configuration"
	case "auth":
		if len(rest) > 0 && (rest[0].Text == "can-i" || rest[0].Text == "whoami") {
			return ""
		}
	case "rollout":
		if len(rest) > 0 && (rest[0].Text == "status" || rest[0].Text == "history") {
			return ""
		}
	}
	return "kubectl " + verb + " is not known to be read-only"
}
