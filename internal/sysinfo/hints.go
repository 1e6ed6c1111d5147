package sysinfo

// Hints are the words the model is given for doing common things in a
// shell's language: the system prompt and the tool descriptions use them,
// so a cmd.exe or PowerShell user's model is not told to use grep or a
// heredoc.
type Hints struct {
	// ReadOnly lists small read-only commands to investigate with.
	ReadOnly string
	// Search says how to search a file holding saved output.
	Search string
	// Binary says how to look at binary output.
	Binary string
	// Shell is the interactive shell to start in a terminal session.
	Shell string
}

// Hints returns the hints for commands run by k.
func (k ShellKind) Hints() Hints {
	switch k {
	case ShellCmd:
		return Hints{
			ReadOnly: "dir, type, findstr, where, tasklist, ipconfig, git status",
			Search:   "findstr or more +N on that file",
			Binary:   "write it to a file and inspect it with certutil -dump",
			Shell:    "cmd",
		}
	case ShellPowerShell:
		return Hints{
			ReadOnly: "Get-ChildItem, Get-Content, Select-String, Get-Process, Get-Service, git status",
			Search:   "Select-String or Get-Content -Tail on that file",
			Binary:   "write it to a file and inspect it with Format-Hex",
			Shell:    "powershell",
		}
	}
	return Hints{
		ReadOnly: "ls, cat, grep, journalctl, systemctl status, git status",
		Search:   "grep, head, tail or sed on that file",
		Binary:   "write it to a file and inspect it with file, xxd or strings",
		Shell:    "bash",
	}
}
