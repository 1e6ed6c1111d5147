package policy

import "strings"

// Read-only knowledge of operator tools, one spec per command family:
// which verbs only read, which options write, run programs or reach
// elsewhere. Each entry is a safeCmd of builtinSafe; a family a user does
// not want auto-approved is removed with approval.safeCommands "!NAME".
//
// Network: docker talks to the local daemon; kubectl reads the cluster of
// the user's own kubeconfig (its read verbs are allowed like any read,
// remove them with "!kubectl"); options naming another daemon, server or
// credentials (docker -H, kubectl --server/--token/--kubeconfig) are
// never safe.

// verbAfter finds the first positional word (the verb or object) after
// global options, where valueOpts take a separate value; ok is false when
// a global option is one of forbidden.
func verbAfter(ws []word, valueOpts map[string]bool, forbidden ...string) (int, string) {
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		if !strings.HasPrefix(t, "-") || t == "-" {
			return i, ""
		}
		name, _, _ := strings.Cut(t, "=")
		for _, f := range forbidden {
			if name == f {
				return -1, t + " points the command elsewhere"
			}
		}
		if valueOpts[t] {
			i++
		}
	}
	return len(ws), ""
}

func init() {
	// ip [OPTIONS] OBJECT [show|list|get…]
	ipObjects := map[string]bool{"addr": true, "address": true, "a": true, "link": true, "l": true, "route": true,
		"r": true, "ro": true, "neigh": true, "neighbour": true, "neighbor": true, "n": true, "rule": true, "ru": true,
		"maddress": true, "maddr": true, "m": true, "netns": true, "tunnel": true, "tuntap": true, "netconf": true,
		"ntable": true, "mroute": true, "vrf": true, "nexthop": true, "token": true, "stats": true, "mptcp": true}
	builtinSafe["ip"] = safeCmd{check: func(ws []word) string {
		i, why := verbAfter(ws, map[string]bool{"-n": true, "-netns": true, "-f": true, "-family": true, "-rc": true, "-rcvbuf": true},
			"-b", "-batch", "-force", "-r", "-resolve")
		if why != "" {
			return "ip " + why
		}
		if i >= len(ws) {
			return "ip without an object"
		}
		if !ipObjects[ws[i].Text] {
			return "ip " + ws[i].Text + " is not known to be read-only"
		}
		if i+1 >= len(ws) {
			return "" // the default command lists
		}
		switch ws[i+1].Text {
		case "show", "sh", "s", "list", "ls", "lst", "l", "get", "g":
			if ws[i].Text == "netns" && ws[i+1].Text != "list" && ws[i+1].Text != "ls" {
				return "ip netns " + ws[i+1].Text + " is not read-only"
			}
			return ""
		}
		if strings.HasPrefix(ws[i+1].Text, "-") || ws[i+1].Text == "dev" {
			return ""
		}
		return "ip " + ws[i].Text + " " + ws[i+1].Text + " is not known to be read-only"
	}}
	for _, n := range []string{"pstree", "ipcs", "lsb_release", "lshw", "last", "lastlog"} {
		builtinSafe[n] = safeCmd{dynOK: true}
	}
	// settings tools print without arguments; with them they change things
	for _, n := range []string{"hostnamectl", "timedatectl", "localectl", "loginctl"} {
		builtinSafe[n] = safeCmd{check: func(ws []word) string {
			if why := first(forbidShort("HM", "", ws), forbidLong(ws, "host", "machine")); why != "" {
				return why
			}
			pos := positionals(ws, "HM")
			if len(pos) == 0 {
				return ""
			}
			switch pos[0].Text {
			case "status", "show", "list", "list-sessions", "list-users", "list-seats", "show-session", "show-user",
				"list-timezones", "list-locales", "list-keymaps", "session-status", "user-status", "seat-status":
				return ""
			}
			return n + " " + pos[0].Text + " changes settings"
		}}
	}
	builtinSafe["ulimit"] = safeCmd{check: func(ws []word) string {
		if len(positionals(ws, "")) > 0 {
			return "ulimit with a value changes limits"
		}
		return ""
	}}
	builtinSafe["umask"] = safeCmd{check: func(ws []word) string {
		if len(positionals(ws, "")) > 0 {
			return "umask with a value changes the mask"
		}
		return ""
	}}
	builtinSafe["stty"] = safeCmd{check: func(ws []word) string {
		for _, w := range ws {
			if w.Text != "-a" && w.Text != "--all" && w.Text != "size" && w.Text != "-g" {
				return "stty " + w.Text + " changes the terminal"
			}
		}
		return ""
	}}
	builtinSafe["tput"] = safeCmd{check: func(ws []word) string {
		for _, w := range ws {
			switch w.Text {
			case "cols", "lines", "colors", "longname":
			default:
				return "tput " + w.Text + " sends a terminal sequence"
			}
		}
		return ""
	}}
	// bc computes; its file operands are programs read
	builtinSafe["bc"] = safeCmd{reads: true, dynOK: true}
	builtinSafe["top"] = safeCmd{check: func(ws []word) string {
		if !shortFlags(ws, "dnpouUwEe")['b'] {
			return "top without -b is interactive"
		}
		return ""
	}}
	// compressors: listing, testing or writing to standard output only
	for _, n := range []string{"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "pigz"} {
		builtinSafe[n] = safeCmd{reads: true, dynOK: true, valueShort: "bSTFMLo", check: func(ws []word) string {
			f := shortFlags(ws, "bSTFMLo")
			if f['o'] || f['S'] || hasLong(ws, "output", "rm", "files", "filelist", "suffix", "output-dir-flat", "output-dir-mirror", "trace", "patch-from", "train") {
				return "writes files"
			}
			if f['c'] || f['l'] || f['t'] || hasLong(ws, "stdout", "to-stdout", "list", "test") {
				return ""
			}
			return "compresses or decompresses files in place"
		}}
	}
	builtinSafe["zstdcat"] = safeCmd{reads: true, dynOK: true}
	builtinSafe["unzip"] = safeCmd{reads: true, valueShort: "dxP", check: func(ws []word) string {
		f := shortFlags(ws, "dxP")
		if len(ws) > 0 && (f['l'] || f['v'] || f['t'] || f['Z'] || f['p']) {
			return ""
		}
		return "unzip extracts files"
	}}
	builtinSafe["zipinfo"] = safeCmd{reads: true}
	// tar: listing only (t), no programs, no remote archive
	for _, n := range []string{"tar", "bsdtar", "gtar"} {
		builtinSafe[n] = safeCmd{reads: true, valueShort: "fCbFgHIKLNTVX", check: func(ws []word) string {
			f := shortFlags(ws, "fCbFgHIKLNTVX")
			if len(ws) > 0 && !strings.HasPrefix(ws[0].Text, "-") {
				for _, c := range ws[0].Text {
					f[byte(c)] = true
				}
			}
			if !f['t'] && !hasLong(ws, "list") {
				return "tar without -t is not read-only"
			}
			if f['I'] || f['F'] || hasLong(ws, "use-compress-program", "to-command", "checkpoint-action", "info-script",
				"new-volume-script", "rsh-command", "rmt-command", "index-file", "volno-file", "listed-incremental", "g") {
				return "tar runs programs or writes files through its options"
			}
			for _, v := range append(optionValues(ws, 'f', "fCbFgHIKLNTVX", "file"), archiveWord(ws)...) {
				if strings.Contains(v, ":") && !hasLong(ws, "force-local") {
					return "tar archive " + v + " names a remote host"
				}
			}
			return ""
		}}
	}
	// pagers print when their output is not a terminal; +cmd and
	// options that log or load key bindings are not read-only
	builtinSafe["less"] = safeCmd{reads: true, dynOK: true, valueShort: "bhjkoOpPtTxyzD#", check: func(ws []word) string {
		for _, w := range ws {
			if strings.HasPrefix(w.Text, "+") {
				return "less " + w.Text + " runs a less command"
			}
		}
		return first(forbidShort("oOk", "bhjpPtTxyzD#", ws), forbidLong(ws, "log-file", "LOG-FILE", "lesskey-file", "lesskey-src", "lesskey-content"))
	}}
	builtinSafe["more"] = safeCmd{reads: true, dynOK: true, check: func(ws []word) string {
		for _, w := range ws {
			if strings.HasPrefix(w.Text, "+") && !isNumber(w.Text[1:]) && !strings.HasPrefix(w.Text, "+/") {
				return "more " + w.Text + " is not known"
			}
		}
		return ""
	}}
	builtinSafe["most"] = safeCmd{reads: true, dynOK: true}
	// shell builtins that print state
	builtinSafe["jobs"] = safeCmd{check: func(ws []word) string { return forbidShort("x", "", ws) }}
	builtinSafe["alias"] = safeCmd{check: func(ws []word) string {
		for _, w := range ws {
			if strings.Contains(w.Text, "=") || !w.Static() {
				return "alias defines an alias"
			}
		}
		return ""
	}}
	builtinSafe["shopt"] = safeCmd{check: func(ws []word) string {
		f := shortFlags(ws, "")
		if f['s'] || f['u'] || f['o'] && !f['p'] && len(positionals(ws, "")) > 0 && (f['s'] || f['u']) {
			return "shopt -s/-u changes how later commands run"
		}
		return ""
	}}
	builtinSafe["history"] = safeCmd{check: func(ws []word) string {
		if len(ws) == 0 || len(ws) == 1 && isNumber(ws[0].Text) {
			return ""
		}
		return "history with options changes the history or its file"
	}}
	// fc -l lists the history (fc without -l re-runs it: the analyser
	// marks that unknown); only the listing flags are known
	builtinSafe["fc"] = safeCmd{check: func(ws []word) string {
		for _, w := range ws {
			if strings.HasPrefix(w.Text, "-") && !isNumber(w.Text[1:]) && strings.Trim(w.Text[1:], "lnr") != "" {
				return "fc " + w.Raw + " is not a listing option"
			}
		}
		if !shortFlags(ws, "")['l'] {
			return "fc without -l re-runs commands from the history"
		}
		return ""
	}}
	// read VAR… reads a line of standard input (the names are checked by
	// the analyser)
	builtinSafe["read"] = safeCmd{check: func(ws []word) string {
		return forbidShort("e", "adinNptu", ws)
	}}
	for _, n := range []string{"zgrep", "zegrep", "zfgrep", "xzgrep", "bzgrep"} {
		builtinSafe[n] = safeCmd{reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", check: func(ws []word) string {
			// grep's own spec (safelist.go), without recursion
			return first(builtinSafe["grep"].check(ws), forbidShort("rR", "efmABCdD", ws))
		}}
	}
	builtinSafe["docker"] = safeCmd{check: dockerRead}
	builtinSafe["podman"] = safeCmd{check: dockerRead}
	builtinSafe["kubectl"] = safeCmd{check: kubectlRead}
}

// archiveWord is the archive of old-style tar options (tar tvf X).
func archiveWord(ws []word) []string {
	if len(ws) > 1 && !strings.HasPrefix(ws[0].Text, "-") && strings.Contains(ws[0].Text, "f") {
		return []string{ws[1].Text}
	}
	return nil
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
	// docker image ls, docker container inspect…
	if (verb == "container" || verb == "image" || verb == "network" || verb == "volume" || verb == "system" || verb == "context") && len(rest) > 0 {
		verb, rest = verb+" "+rest[0].Text, rest[1:]
	}
	switch verb {
	case "ps", "images", "version", "info", "logs", "port", "top", "history", "diff", "stats",
		"container ls", "container list", "container ps", "container logs", "container port", "container top", "container diff", "container stats",
		"image ls", "image list", "image history", "network ls", "network list", "volume ls", "volume list", "system df", "context ls", "context list", "context show":
		if verb == "stats" || verb == "container stats" {
			if !anyWord(rest, "--no-stream") {
				return "docker stats without --no-stream never ends"
			}
		}
		return ""
	case "inspect", "container inspect", "image inspect", "network inspect", "volume inspect":
		// the container's environment often holds passwords: only a
		// --format that leaves out Env and Config is read-only
		for _, v := range optionValues(rest, 'f', "f", "format") {
			if !strings.Contains(v, "Env") && !strings.Contains(v, "Config") && !strings.Contains(v, "json .") && v != "{{json .}}" && strings.Contains(v, "{{") {
				return ""
			}
		}
		return "docker inspect shows the environment, which may hold secrets"
	}
	return "docker " + verb + " is not known to be read-only"
}

// kubectlRead accepts kubectl's read verbs on the user's own cluster.
func kubectlRead(ws []word) string {
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
		if strings.Contains(w.Text, "go-template-file") || strings.Contains(w.Text, "jsonpath-file") {
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

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
