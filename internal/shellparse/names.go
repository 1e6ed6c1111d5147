package shellparse

import "strings"

var networkTools = map[string]bool{
	"curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "socat": true,
	"ssh": true, "scp": true, "sftp": true, "rsync": true, "ftp": true, "tftp": true,
	"telnet": true, "ping": true, "ping6": true, "dig": true, "nslookup": true, "host": true,
	"aria2c": true, "http": true, "https": true, "xh": true, "lftp": true, "fetch": true,
	"openssl": true, "gh": true, "mosh": true, "traceroute": true, "tracepath": true, "mtr": true,
	"whois": true, "nmap": true, "axel": true, "links": true, "lynx": true, "w3m": true,
}

// IsNetworkTool reports whether name talks to the network by design.
func IsNetworkTool(name string) bool { return networkTools[name] }

var riskyEnvExact = map[string]bool{
	"PATH": true, "IFS": true, "ENV": true, "BASH_ENV": true, "PS4": true, "PROMPT_COMMAND": true,
	"SHELLOPTS": true, "BASHOPTS": true, "CDPATH": true, "GLOBIGNORE": true, "HOME": true,
	"PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true, "EDITOR": true, "VISUAL": true,
	"BROWSER": true, "NODE_OPTIONS": true, "RUBYOPT": true, "PERL5OPT": true, "PERL5LIB": true,
	"PYTHONPATH": true, "PYTHONSTARTUP": true, "PYTHONHOME": true, "PYTHONINSPECT": true,
	"TAR_OPTIONS": true, "GREP_OPTIONS": true, "SUDO_ASKPASS": true, "SSH_ASKPASS": true,
	"ZDOTDIR": true, "XDG_CONFIG_HOME": true, "TMPDIR": true, "JQ_LIB": true, "LESSOPEN": true,
	"LESSCLOSE": true, "EXINIT": true, "VIMINIT": true, "SHELL": true, "TERMINFO": true,
}

var riskyEnvPrefix = []string{"LD_", "DYLD_", "GIT_", "BASH_FUNC", "LESS", "SSH_", "NPM_CONFIG_", "npm_config_", "PYTHON", "DOCKER_", "KUBECONFIG", "RUSTC", "CARGO_", "GO"}

// IsRiskyEnvName reports whether setting the variable can change which
// program runs or make a program run another one.
func IsRiskyEnvName(name string) bool {
	if riskyEnvExact[name] {
		return true
	}
	for _, p := range riskyEnvPrefix {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
