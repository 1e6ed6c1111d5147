package shwrap

import (
	"bufio"
	"path"
	"strings"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// ProbeScript prints KEY=value lines describing the machine, then one
// "tool NAME PATH" line per detected tool, in one round trip.
const ProbeScript = `echo "kernel=$(uname -s)"
echo "release=$(uname -r)"
echo "arch=$(uname -m)"
if [ -r /etc/os-release ]; then . /etc/os-release; echo "distro=$PRETTY_NAME"; fi
if command -v sw_vers >/dev/null 2>&1; then echo "distro=macOS $(sw_vers -productVersion)"; fi
echo "user=$(id -un)"
echo "home=$HOME"
echo "shell=$SHELL"
echo "bash=$(command -v bash)"
d=$(mktemp -d 2>/dev/null) && { : > "$d/a"; if [ -e "$d/A" ]; then echo case=0; else echo case=1; fi; rm -rf "$d"; }
for t in "$@"; do p=$(command -v -- "$t" 2>/dev/null) && echo "tool $t $p"; done
exit 0
`

// ParseProbe reads ProbeScript's output.
func ParseProbe(s string, detect []string) *sysinfo.Info {
	info := &sysinfo.Info{CaseSensitive: true}
	kv := map[string]string{}
	found := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "tool "); ok {
			name, _, _ := strings.Cut(rest, " ")
			found[name] = true
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok {
			kv[k] = v
		}
	}
	info.OS = kv["kernel"]
	switch {
	case kv["distro"] != "":
		info.OS += " (" + kv["distro"] + ")"
	case kv["release"] != "":
		info.OS += " " + kv["release"]
	}
	info.Arch = kv["arch"]
	info.User = kv["user"]
	info.Home = kv["home"]
	info.ShellPath = kv["bash"]
	if info.ShellPath == "" {
		info.ShellPath = kv["shell"]
	}
	if info.ShellPath == "" {
		info.ShellPath = "/bin/sh"
	}
	info.Shell = path.Base(info.ShellPath)
	info.CaseSensitive = kv["case"] != "0"
	for _, t := range detect {
		if found[t] {
			info.Present = append(info.Present, t)
		} else {
			info.Missing = append(info.Missing, t)
		}
	}
	return info
}
