package shellparse

import "strings"

// Programs is what the analyser must be told about programs: which run
// shell scripts (their -c scripts and script files are analysed as bash)
// and which talk to the network (what they print, piped into another
// command, is network data). The command base answers it.
type Programs interface {
	IsShell(name string) bool
	IsNetworkTool(name string) bool
	// PrintsNumber reports a command (its name and arguments) whose
	// output is one number (wc -l reading its input): bash may evaluate
	// its substitution as arithmetic.
	PrintsNumber(words []string) bool
}

// noPrograms knows no program: no inner script is analysed and no input
// comes from the network, so nothing more is known, never less careful
// analysis of what is seen.
type noPrograms struct{}

func (noPrograms) IsShell(string) bool        { return false }
func (noPrograms) IsNetworkTool(string) bool  { return false }
func (noPrograms) PrintsNumber([]string) bool { return false }

var riskyEnvExact = map[string]bool{
	"PATH": true, "IFS": true, "ENV": true, "BASH_ENV": true, "PS4": true, "PROMPT_COMMAND": true,
	"SHELLOPTS": true, "BASHOPTS": true, "CDPATH": true, "GLOBIGNORE": true, "HOME": true,
	"PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true, "EDITOR": true, "VISUAL": true,
	"BROWSER": true, "NODE_OPTIONS": true, "RUBYOPT": true, "PERL5OPT": true, "PERL5LIB": true,
	"PYTHONPATH": true, "PYTHONSTARTUP": true, "PYTHONHOME": true, "PYTHONINSPECT": true,
	"TAR_OPTIONS": true, "GREP_OPTIONS": true, "SUDO_ASKPASS": true, "SSH_ASKPASS": true,
	"ZDOTDIR": true, "XDG_CONFIG_HOME": true, "TMPDIR": true, "JQ_LIB": true, "LESSOPEN": true,
	"LESSCLOSE": true, "EXINIT": true, "VIMINIT": true, "SHELL": true, "TERMINFO": true,
	// prompt, history and hook variables of an interactive bash
	"PS0": true, "PS1": true, "PS2": true, "PS3": true, "HISTFILE": true, "HISTCONTROL": true,
	"HISTIGNORE": true, "INPUTRC": true, "EXECIGNORE": true, "BASH_XTRACEFD": true,
	"BASH_LOADABLES_PATH": true, "BASH_COMPAT": true, "POSIXLY_CORRECT": true, "MAILPATH": true,
	"FCEDIT": true, "HOSTFILE": true, "BASH_ARGV0": true,
	// build and runtime option variables that load or run code
	"JAVA_TOOL_OPTIONS": true,
	"_JAVA_OPTIONS":     true, "JDK_JAVA_OPTIONS": true, "MAVEN_OPTS": true, "GRADLE_OPTS": true,
	"RUSTFLAGS": true, "RUSTDOCFLAGS": true, "PHPRC": true, "PHP_INI_SCAN_DIR": true,
	"OPENSSL_CONF": true, "GCONV_PATH": true, "R_PROFILE": true, "R_PROFILE_USER": true,
}

var riskyEnvPrefix = []string{"LD_", "DYLD_", "GIT_", "BASH_FUNC", "LESS", "SSH_", "NPM_CONFIG_", "npm_config_", "PYTHON", "DOCKER_", "KUBECONFIG", "RUSTC", "CARGO_", "GO",
	"MAKE", "PYTEST_", "TOX_", "PIP_", "UV_", "POETRY_", "BUNDLE_", "GEM_", "RUBY", "NODE_", "PERL", "LUA_", "YARN_", "PNPM_", "DENO_", "BUN_", "COMPOSER_",
	// configuration files and default options of tools, credential
	// helpers, loaders and proxies
	"RIPGREP_", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AZURE_CONFIG_DIR", "CLOUDSDK_", "GOOGLE_APPLICATION_CREDENTIALS", "TF_CLI_", "TF_PLUGIN", "ANSIBLE_", "HELM_", "KUBE",
	"SSLKEYLOG", "GLIBC_TUNABLES", "MALLOC_", "RSYNC_", "OPENSSL_", "LOCPATH", "NLSPATH", "HOSTALIASES", "RES_OPTIONS",
	"VIM", "MYVIMRC", "NVIM", "AWKPATH", "AWKLIBPATH", "CLASSPATH", "WGETRC", "CURL_HOME", "UNZIP", "ZIPOPT", "GZIP",
	"XZ_", "BZIP", "ZSTD_", "FZF_", "BAT_", "MANOPT", "MANPATH", "GNUPGHOME", "KRB5", "CONDA_", "JULIA_", "R_LIBS",
	"EMACS", "PKG_CONFIG", "QT_", "GTK_", "GIO_", "SUDO_", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy",
	"https_proxy", "all_proxy", "FTP_PROXY", "ftp_proxy", "NO_PROXY", "no_proxy", "TERMCAP", "INFOPATH", "GROFF_",
	"TEXMF", "JAVA_HOME", "ELECTRON_", "GPG_", "DBUS_", "XDG_"}

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
