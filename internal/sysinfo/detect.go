package sysinfo

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"
	"unicode"
)

// Detect describes the local machine. getenv supplies PATH, HOME, USER and
// SHELL (USERNAME and USERPROFILE on Windows); detect lists the tools to
// look for. Tools are found by stat-ing PATH entries (with PATHEXT on
// Windows), never by running a process. The shell reported is the one
// run_cmd would use with shell "auto" (DefaultShell); hosts with another
// shell overwrite Shell and ShellPath.
func Detect(getenv func(string) string, detect []string) (*Info, error) {
	path := getenv("PATH")
	info := &Info{
		OS:   osName(),
		Arch: ArchName(runtime.GOARCH),
		User: getenv("USER"),
		Home: getenv("HOME"),
	}
	if info.User == "" {
		info.User = getenv("LOGNAME")
	}
	if info.User == "" {
		info.User = getenv("USERNAME")
	}
	if info.Home == "" {
		info.Home = getenv("USERPROFILE")
	}
	if info.User == "" || info.Home == "" {
		if u, err := user.Current(); err == nil {
			if info.User == "" {
				info.User = u.Username
			}
			if info.Home == "" {
				info.Home = u.HomeDir
			}
		}
	}
	info.ShellPath = DefaultShell(path)
	info.Shell = ShellName(info.ShellPath)
	info.CaseSensitive = caseSensitive(info.Home)
	info.Present, info.Missing = Tools(path, detect)
	return info, nil
}

// Tools splits names into those found in path and those not.
func Tools(path string, names []string) (present, missing []string) {
	present, missing = []string{}, []string{}
	dirs := filepath.SplitList(path)
	for _, n := range names {
		if lookIn(n, dirs) != "" {
			present = append(present, n)
		} else {
			missing = append(missing, n)
		}
	}
	return present, missing
}

// LookPath finds an executable regular file called name in the directories
// of path ("" when absent). On Windows a name without extension is tried
// with each PATHEXT extension.
func LookPath(name, path string) string {
	return lookIn(name, filepath.SplitList(path))
}

func lookIn(name string, dirs []string) string {
	if name == "" || hasDir(name) {
		return ""
	}
	for _, d := range dirs {
		if d == "" {
			continue // the current directory is not searched
		}
		if p := findExec(d, name); p != "" {
			return p
		}
	}
	return ""
}

// ArchName turns a Go architecture into the name uname -m users know
// (seed 000: x86_64, arm64).
func ArchName(goarch string) string {
	switch goarch {
	case "amd64":
		return "x86_64"
	case "386":
		return "i686"
	case "arm":
		return "armv7l"
	}
	return goarch
}

func osName() string {
	switch runtime.GOOS {
	case "linux":
		if pretty := osRelease("/etc/os-release"); pretty != "" {
			return "Linux (" + pretty + ")"
		}
		if pretty := osRelease("/usr/lib/os-release"); pretty != "" {
			return "Linux (" + pretty + ")"
		}
		return "Linux"
	case "darwin":
		if v := plistValue("/System/Library/CoreServices/SystemVersion.plist", "ProductVersion"); v != "" {
			return "macOS " + v
		}
		return "macOS"
	case "windows":
		return windowsName()
	}
	return titleCase(runtime.GOOS)
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// osRelease reads PRETTY_NAME (or NAME VERSION_ID) from an os-release file.
func osRelease(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	vals := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok {
			continue
		}
		v = strings.Trim(v, `"'`)
		vals[k] = v
	}
	if p := vals["PRETTY_NAME"]; p != "" {
		return p
	}
	return strings.TrimSpace(vals["NAME"] + " " + vals["VERSION_ID"])
}

// plistValue finds <key>key</key><string>value</string> in an XML plist.
func plistValue(path, key string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	i := bytes.Index(data, []byte("<key>"+key+"</key>"))
	if i < 0 {
		return ""
	}
	rest := data[i:]
	s := bytes.Index(rest, []byte("<string>"))
	e := bytes.Index(rest, []byte("</string>"))
	if s < 0 || e < s {
		return ""
	}
	return string(rest[s+len("<string>") : e])
}

// caseSensitive checks the filesystem holding dir (or the root): it stats a
// case-swapped spelling of an existing path and compares the two files.
func caseSensitive(dir string) bool {
	for _, p := range []string{dir, os.TempDir(), "/usr", "/etc"} {
		if p == "" {
			continue
		}
		orig, err := os.Stat(p)
		if err != nil {
			continue
		}
		swapped := swapCase(filepath.Base(p))
		if swapped == filepath.Base(p) {
			continue
		}
		other, err := os.Stat(filepath.Join(filepath.Dir(p), swapped))
		if err != nil {
			return true
		}
		return !os.SameFile(orig, other)
	}
	return true
}

func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsUpper(r):
			return unicode.ToLower(r)
		case unicode.IsLower(r):
			return unicode.ToUpper(r)
		}
		return r
	}, s)
}

// Format renders info and the shell working directory as the system-prompt
// sections of seed 000: "## Environment", "## Available Tools" and, when
// cwd is not empty, "## Session". The chat leaves cwd out of its stable
// system prompt and sends it with every request instead.
func Format(info *Info, cwd string) string {
	var b strings.Builder
	yesNo := "no"
	if info.CaseSensitive {
		yesNo = "yes"
	}
	fmt.Fprintf(&b, "## Environment\n- OS: %s\n- Shell: %s\n- Architecture: %s\n- User: %s\n- Home: %s\n- Case-sensitive filesystem: %s\n",
		orUnknown(info.OS), orUnknown(shellTitle(info.Shell)), orUnknown(info.Arch), orUnknown(info.User), orUnknown(info.Home), yesNo)
	if len(info.Present)+len(info.Missing) > 0 {
		fmt.Fprintf(&b, "\n## Available Tools\nPresent: %s\nNot found: %s\n", list(info.Present), list(info.Missing))
	}
	if cwd != "" {
		fmt.Fprintf(&b, "\n## Session\n- Working directory: %s\n", cwd)
	}
	return b.String()
}

// shellTitle names Windows shells the way their users know them.
func shellTitle(name string) string {
	switch name {
	case "cmd":
		return "cmd.exe"
	case "pwsh":
		return "PowerShell 7 (pwsh)"
	case "powershell":
		return "Windows PowerShell (powershell.exe)"
	}
	return name
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func list(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, ", ")
}
