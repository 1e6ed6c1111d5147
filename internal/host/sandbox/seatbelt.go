package sandbox

import (
	"fmt"
	"strings"
)

// MechanismSeatbelt is macOS's sandbox, entered through sandbox-exec.
const MechanismSeatbelt = "seatbelt"

// seatbeltExec is macOS's sandbox launcher.
const seatbeltExec = "/usr/bin/sandbox-exec"

// seatbeltBase is the fixed part of every profile nb generates: nothing
// is allowed unless a rule says so (no network, no unix socket, no
// service lookup), processes may start and signal their own, see only
// their own, read the system's settings, and use a terminal and the null
// devices.
const seatbeltBase = `(version 1)
(deny default)
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow sysctl-read)
(allow user-preference-read)
(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))
(allow ipc-posix-sem)
(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$"))
(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr") (literal "/dev/tty"))
`

// seatbeltTemp are macOS's temporary directories, private in the sandbox
// (/tmp is a link to /private/tmp; TMPDIR lies below /private/var/folders).
var seatbeltTemp = []string{"/private/tmp", "/private/var/folders"}

// seatbeltProfile is the profile enforcing layout l and the parameters
// (-D NAME=VALUE) naming its paths: paths are never written into the
// profile's text, so no name can change what it says. In a profile the
// last rule that matches decides, so each list overrides the ones before
// it: everything is readable, then Hidden and the temporary directories
// are not, then Visible, Keep and Scratch are, then Masked is not;
// Writable and Scratch are writable, then ReadOnly is not.
func seatbeltProfile(l Layout) (profile string, params []string) {
	var b strings.Builder
	b.WriteString(seatbeltBase)
	rule := func(action, ops, prefix string, paths []string) {
		if len(paths) == 0 {
			return
		}
		fmt.Fprintf(&b, "(%s %s", action, ops)
		for i, p := range paths {
			name := fmt.Sprintf("%s_%d", prefix, i)
			fmt.Fprintf(&b, "\n  (subpath (param %q))", name)
			params = append(params, name+"="+p)
		}
		b.WriteString(")\n")
	}
	b.WriteString("(allow file-read*)\n")
	rule("deny", "file-read*", "HIDDEN", l.Hidden)
	rule("deny", "file-read*", "TEMP", seatbeltTemp)
	rule("allow", "file-read*", "VISIBLE", l.Visible)
	rule("allow", "file-read*", "KEEP", l.Keep)
	rule("allow", "file-read*", "SCRATCH", l.Scratch)
	rule("deny", "file-read*", "MASKED", l.Masked)
	rule("allow", "file-write*", "WRITABLE", l.Writable)
	rule("allow", "file-write*", "SCRATCHW", l.Scratch)
	rule("deny", "file-write*", "READONLY", l.ReadOnly)
	rule("deny", "file-write*", "MASKEDW", l.Masked)
	if l.Network {
		// The network, but no unix socket: those lead out of the sandbox.
		b.WriteString("(allow system-socket)\n(allow network-outbound (remote ip))\n(allow network-inbound (local ip))\n")
		b.WriteString("(allow mach-lookup (global-name \"com.apple.dnssd.service\") (global-name \"com.apple.mDNSResponder\"))\n")
	}
	return b.String(), params
}

// seatbeltArgv is the argv running argv under layout l.
func seatbeltArgv(l Layout, argv []string) []string {
	profile, params := seatbeltProfile(l)
	out := make([]string, 0, len(argv)+2*len(params)+4)
	out = append(out, seatbeltExec, "-p", profile)
	for _, p := range params {
		out = append(out, "-D", p)
	}
	out = append(out, "--")
	return append(out, argv...)
}
