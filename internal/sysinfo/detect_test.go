package sysinfo

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDetect(t *testing.T) {
	bin := t.TempDir()
	for _, n := range []string{"git", "jq"} {
		os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\n"), 0o755)
	}
	os.WriteFile(filepath.Join(bin, "node"), []byte("not executable"), 0o644)
	os.Mkdir(filepath.Join(bin, "docker"), 0o755)
	home := t.TempDir()
	info, err := Detect(env(map[string]string{"PATH": bin + ":" + os.Getenv("PATH"), "HOME": home, "USER": "joseph"}),
		[]string{"git", "node", "docker", "jq", "nb-surely-missing"})
	if err != nil {
		t.Fatal(err)
	}
	if info.User != "joseph" || info.Home != home {
		t.Errorf("user/home: %+v", info)
	}
	if strings.Join(info.Present, ",") != "git,jq" && !strings.HasPrefix(strings.Join(info.Present, ","), "git,") {
		t.Errorf("present %v", info.Present)
	}
	for _, m := range []string{"nb-surely-missing"} {
		found := false
		for _, x := range info.Missing {
			found = found || x == m
		}
		if !found {
			t.Errorf("missing %v lacks %s", info.Missing, m)
		}
	}
	if runtime.GOOS == "linux" {
		if !strings.HasPrefix(info.OS, "Linux (") || !info.CaseSensitive {
			t.Errorf("linux info %+v", info)
		}
		if want := map[string]string{"amd64": "x86_64", "arm64": "arm64"}[runtime.GOARCH]; want != "" && info.Arch != want {
			t.Errorf("arch %s", info.Arch)
		}
	}
	if info.Shell == "" || !filepath.IsAbs(info.ShellPath) {
		t.Errorf("shell %q %q", info.Shell, info.ShellPath)
	}
}

func TestToolsNotExecutableOrDir(t *testing.T) {
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "node"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(bin, "docker"), 0o755)
	os.WriteFile(filepath.Join(bin, "git"), []byte("x"), 0o755)
	present, missing := Tools(bin, []string{"node", "docker", "git", "a/b"})
	if strings.Join(present, ",") != "git" || strings.Join(missing, ",") != "node,docker,a/b" {
		t.Fatalf("present %v missing %v", present, missing)
	}
}

func TestFormat(t *testing.T) {
	info := &Info{OS: "Linux (Ubuntu 22.04)", Shell: "bash", Arch: "x86_64", User: "joseph", Home: "/home/joseph",
		CaseSensitive: true, Present: []string{"python3", "git"}, Missing: []string{"node"}}
	want := `## Environment
- OS: Linux (Ubuntu 22.04)
- Shell: bash
- Architecture: x86_64
- User: joseph
- Home: /home/joseph
- Case-sensitive filesystem: yes

## Available Tools
Present: python3, git
Not found: node

## Session
- Working directory: /home/joseph/projects/myapp
`
	if got := Format(info, "/home/joseph/projects/myapp"); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	info.Present, info.CaseSensitive = nil, false
	got := Format(info, "/tmp")
	if !strings.Contains(got, "Present: (none)\n") || !strings.Contains(got, "Case-sensitive filesystem: no") || !strings.HasSuffix(got, "- Working directory: /tmp\n") {
		t.Fatalf("got\n%s", got)
	}
}

func TestOSRelease(t *testing.T) {
	p := filepath.Join(t.TempDir(), "os-release")
	os.WriteFile(p, []byte("NAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"), 0o644)
	if got := osRelease(p); got != "Debian GNU/Linux 12 (bookworm)" {
		t.Fatalf("got %q", got)
	}
	os.WriteFile(p, []byte("NAME=Alpine\nVERSION_ID=3.20\n"), 0o644)
	if got := osRelease(p); got != "Alpine 3.20" {
		t.Fatalf("got %q", got)
	}
	pl := filepath.Join(t.TempDir(), "v.plist")
	os.WriteFile(pl, []byte("<dict>\n\t<key>ProductName</key>\n\t<string>macOS</string>\n\t<key>ProductVersion</key>\n\t<string>14.1</string>\n</dict>"), 0o644)
	if got := plistValue(pl, "ProductVersion"); got != "14.1" {
		t.Fatalf("plist %q", got)
	}
}

// BenchmarkDetect measures detection of the default tool list (target: under
// 2 ms).
func BenchmarkDetect(b *testing.B) {
	tools := []string{"python3", "python", "node", "dotnet", "ruby", "git", "docker", "kubectl",
		"ffmpeg", "magick", "curl", "jq", "aws", "az", "gcloud"}
	for b.Loop() {
		if _, err := Detect(os.Getenv, tools); err != nil {
			b.Fatal(err)
		}
	}
}
