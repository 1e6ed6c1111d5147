package sysinfo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// DefaultShell is the shell "auto" picks on Windows: bash when one is in
// path (Git Bash, MSYS2; not the WSL launcher in System32), else PowerShell
// 7 (pwsh), else Windows PowerShell, else cmd.exe (%ComSpec%).
func DefaultShell(path string) string {
	sys := systemDir()
	for _, d := range filepath.SplitList(path) {
		if d == "" || (sys != "" && strings.EqualFold(filepath.Clean(d), sys)) {
			continue // WSL's bash.exe lives in System32
		}
		if p := findExec(d, "bash"); p != "" {
			return p
		}
	}
	for _, n := range []string{"pwsh", "powershell"} {
		if p := LookPath(n, path); p != "" {
			return p
		}
	}
	if sys != "" {
		if p := filepath.Join(sys, "WindowsPowerShell", "v1.0", "powershell.exe"); isFile(p) {
			return p
		}
	}
	if c := os.Getenv("ComSpec"); c != "" && isFile(c) {
		return c
	}
	if p := LookPath("cmd", path); p != "" {
		return p
	}
	return filepath.Join(sys, "cmd.exe")
}

func systemDir() string {
	d, err := windows.GetSystemDirectory()
	if err != nil {
		return ""
	}
	return filepath.Clean(d)
}

// findExec returns dir/name when it is a file, trying name as given when
// its extension is in PATHEXT and then name with each PATHEXT extension,
// as cmd.exe searches.
func findExec(dir, name string) string {
	exts := pathExt()
	ext := filepath.Ext(name)
	for _, e := range exts {
		if ext != "" && strings.EqualFold(ext, e) {
			if p := filepath.Join(dir, name); isFile(p) {
				return p
			}
			break
		}
	}
	for _, e := range exts {
		if p := filepath.Join(dir, name+strings.ToLower(e)); isFile(p) {
			return p
		}
	}
	return ""
}

// pathExt lists the executable extensions (PATHEXT, or the Windows
// default).
func pathExt() []string {
	var exts []string
	for _, e := range strings.Split(os.Getenv("PATHEXT"), ";") {
		if e = strings.TrimSpace(e); e != "" {
			if !strings.HasPrefix(e, ".") {
				e = "." + e
			}
			exts = append(exts, e)
		}
	}
	if len(exts) == 0 {
		exts = []string{".com", ".exe", ".bat", ".cmd"}
	}
	return exts
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// hasDir reports whether name names a path rather than a command.
func hasDir(name string) bool { return strings.ContainsAny(name, `/\:`) }

// windowsName is "Windows 11 (10.0.22631)" from the kernel's version, which
// (unlike GetVersionEx) is not shimmed for compatibility.
func windowsName() string {
	v := windows.RtlGetVersion()
	name := "Windows"
	switch {
	case v.MajorVersion == 10 && v.BuildNumber >= 22000:
		name = "Windows 11"
	case v.MajorVersion == 10:
		name = "Windows 10"
	case v.MajorVersion == 6 && v.MinorVersion == 3:
		name = "Windows 8.1"
	case v.MajorVersion == 6 && v.MinorVersion == 2:
		name = "Windows 8"
	case v.MajorVersion == 6 && v.MinorVersion == 1:
		name = "Windows 7"
	}
	return fmt.Sprintf("%s (%d.%d.%d)", name, v.MajorVersion, v.MinorVersion, v.BuildNumber)
}
