// Package enter is the sandbox's helper process: nb's binary executed
// again with Arg (or OverlayArg) as its first argument builds the
// command's view of the system, restricts itself and starts the command
// (package sandbox decides what the view is and starts the helper).
//
// The helper takes over in this package's init, not in main: Go
// initialises a package once the packages it imports are, and this one
// imports only the standard library, x/sys and go-landlock, so the
// helper starts without paying for the initialisation of the rest of nb
// (the model providers' SDKs, the policy). Everything the helper runs is
// in this package and its imports.
package enter

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Arg is the hidden first argument with which nb re-executes itself
// to enter the sandbox (its own namespaces' view, or Landlock): nb
// __sandbox-exec SPEC -- argv...
const Arg = "__sandbox-exec"

// SpecFromFD, followed by a descriptor's number, stands for the spec in
// the helper's argv: it is read from that descriptor.
const SpecFromFD = "fd:"

// GraceEnv passes the helper's supervisor the grace (in
// milliseconds) a SIGTERM leaves the command; it is removed from the
// command's environment.
const GraceEnv = "NB_SANDBOX_GRACE_MS"

// Spec is what the helper enforces, passed as JSON in its argv.
type Spec struct {
	Writable []string `json:"w"`
	// Hidden are unreadable (the layout's Hidden and Masked); Visible
	// are readable below them, but for what Hidden holds below Visible.
	Hidden   []string `json:"h,omitempty"`
	Visible  []string `json:"v,omitempty"`
	ReadOnly []string `json:"r,omitempty"`
	Scratch  []string `json:"s,omitempty"`
	Network  bool     `json:"n,omitempty"`
	// PrivateTmp gives the command an empty /tmp holding only Keep and
	// the scratch directories below it; PIDs gives it its own /proc (the
	// helper runs in its own process namespace). Both need Mounts.
	PrivateTmp bool     `json:"p,omitempty"`
	Keep       []string `json:"k,omitempty"`
	PIDs       bool     `json:"pid,omitempty"`
	// Mounts says the helper runs in its own user and mount namespaces:
	// it binds ReadOnly read-only, so Landlock need not refuse new
	// entries in the directories holding them (the workspace's top).
	Mounts bool `json:"m,omitempty"`
	// Terminal allows terminal ioctls (PTY sessions); otherwise nb's
	// controlling terminal is detached first.
	Terminal bool `json:"t,omitempty"`
	// NS makes the helper the namespace mechanism's (ns_linux.go): it
	// builds the view by mounting NS's plan itself and starts the
	// command, with no Landlock and no second stage.
	NS *NSSpec `json:"ns,omitempty"`
	// Overlays are mounted before NS's view is built (a preview: the
	// view's writable trees are copy-on-write overlays).
	Overlays []OverlayMount `json:"ov,omitempty"`
	// Inner marks the helper's second stage, started by the first (the
	// supervisor) to restrict itself and execute the command.
	Inner bool `json:"i,omitempty"`
}

// NSSpec is the namespace mechanism's view: the plan's mounts over the
// read-only system, and the tmpfs covers to seal.
type NSSpec struct {
	Mounts []Mount  `json:"m,omitempty"`
	Sealed []string `json:"x,omitempty"`
}

func init() {
	if len(os.Args) < 2 {
		return
	}
	switch os.Args[1] {
	case Arg:
		os.Exit(helperMain(os.Args[1:]))
	case OverlayArg:
		os.Exit(overlayHelper(os.Args[1:]))
	}
}

// Mount is one filesystem operation of a layout's plan, named as
// bubblewrap's options name it; the namespace helper (ns_linux.go)
// performs the same list bubblewrap is given.
type Mount struct {
	Op   string `json:"o"` // --bind, --ro-bind, --tmpfs
	Src  string `json:"s,omitempty"`
	Dest string `json:"d"`
	// Perms is the mode of a --tmpfs ("" for 0755).
	Perms string `json:"p,omitempty"`
}

// KernelSettings are the files of /proc through which root changes the
// running kernel, bound read-only over the sandbox's own /proc.
var KernelSettings = []string{"/proc/sys", "/proc/sysrq-trigger"}

// helperMain runs the helper for args (the helper's arguments without
// the program name, Arg first): it restricts the process and starts the
// command, so it returns only on failure, with the status to exit with.
func helperMain(args []string) int {
	if len(args) < 4 || args[2] != "--" {
		fmt.Fprintln(os.Stderr, "nb: sandbox helper: usage: nb "+Arg+" SPEC -- COMMAND...")
		return 126
	}
	spec := []byte(args[1])
	if fd, ok := strings.CutPrefix(args[1], SpecFromFD); ok {
		// the spec comes through a descriptor, written once it is made
		n, err := strconv.Atoi(fd)
		if err != nil || n < 3 {
			fmt.Fprintf(os.Stderr, "nb: sandbox helper: bad descriptor %q\n", fd)
			return 126
		}
		f := os.NewFile(uintptr(n), "spec")
		spec, err = io.ReadAll(f)
		f.Close()
		if err != nil || len(spec) == 0 {
			fmt.Fprintf(os.Stderr, "nb: sandbox helper: no view was given (%v)\n", err)
			return 126
		}
	}
	var s Spec
	if err := json.Unmarshal(spec, &s); err != nil {
		fmt.Fprintf(os.Stderr, "nb: sandbox helper: bad spec: %v\n", err)
		return 126
	}
	if err := enterLandlock(s, args[3:]); err != nil {
		fmt.Fprintf(os.Stderr, "nb: sandbox: %v\n", err)
		return 126
	}
	return 0
}

// Argv is the argv that runs argv through the helper at self with spec s.
func Argv(self string, s Spec, argv []string) ([]string, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("sandbox spec: %w", err)
	}
	out := make([]string, 0, len(argv)+4)
	out = append(out, self, Arg, string(b), "--")
	return append(out, argv...), nil
}
