package shellparse

// testPrograms stands in for the command base (package cmdbase answers
// in nb, and the policy's tests decide through it): the shells and
// network tools these tests use.
type testPrograms struct{}

func (testPrograms) IsShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "ksh93", "mksh", "ash", "yash", "posh", "fish", "rbash":
		return true
	}
	return false
}

func (testPrograms) IsNetworkTool(name string) bool {
	switch name {
	case "curl", "wget", "nc", "ncat", "netcat", "socat", "ssh", "scp", "sftp", "rsync", "ftp", "tftp", "telnet",
		"ping", "dig", "nslookup", "host", "aria2c", "http", "https", "xh", "lftp", "fetch", "openssl", "gh", "mosh":
		return true
	}
	return false
}

func (testPrograms) PrintsNumber(words []string) bool {
	return len(words) == 2 && words[0] == "wc" && words[1] == "-l"
}

func init() { defaultPrograms = testPrograms{} }
