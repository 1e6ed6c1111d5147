package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// HelperArg is the hidden first argument with which nb re-executes itself
// to enter a Landlock sandbox: nb __sandbox-exec SPEC -- argv...
const HelperArg = "__sandbox-exec"

// specFromFD, followed by a descriptor's number, stands for the spec in
// the helper's argv: it is read from that descriptor.
const specFromFD = "fd:"

// superviseGraceEnv passes the helper's supervisor the grace (in
// milliseconds) a SIGTERM leaves the command; it is removed from the
// command's environment.
const superviseGraceEnv = "NB_SANDBOX_GRACE_MS"

// helperSpec is what the helper enforces, passed as JSON in its argv.
type helperSpec struct {
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
	NS *nsSpec `json:"ns,omitempty"`
	// Inner marks the helper's second stage, started by the first (the
	// supervisor) to restrict itself and execute the command.
	Inner bool `json:"i,omitempty"`
}

// nsSpec is the namespace mechanism's view: the plan's mounts over the
// read-only system, and the tmpfs covers to seal.
type nsSpec struct {
	Mounts []mount  `json:"m,omitempty"`
	Sealed []string `json:"x,omitempty"`
}

// MaybeHelper runs the Landlock helper when args (nb's arguments without
// the program name) start with HelperArg: it restricts the process and
// executes the command, so it returns only on failure. handled is false for
// every other command line. Call it first thing in main.
func MaybeHelper(args []string) (handled bool, exitCode int) {
	helperWired.Store(true)
	if len(args) > 0 && args[0] == overlayArg {
		return true, overlayHelper(args)
	}
	if len(args) == 0 || args[0] != HelperArg {
		return false, 0
	}
	if len(args) < 4 || args[2] != "--" {
		fmt.Fprintln(os.Stderr, "nb: sandbox helper: usage: nb "+HelperArg+" SPEC -- COMMAND...")
		return true, 126
	}
	spec := []byte(args[1])
	if fd, ok := strings.CutPrefix(args[1], specFromFD); ok {
		// the spec comes through a descriptor, written once it is made
		n, err := strconv.Atoi(fd)
		if err != nil || n < 3 {
			fmt.Fprintf(os.Stderr, "nb: sandbox helper: bad descriptor %q\n", fd)
			return true, 126
		}
		f := os.NewFile(uintptr(n), "spec")
		spec, err = io.ReadAll(f)
		f.Close()
		if err != nil || len(spec) == 0 {
			fmt.Fprintf(os.Stderr, "nb: sandbox helper: no view was given (%v)\n", err)
			return true, 126
		}
	}
	var s helperSpec
	if err := json.Unmarshal(spec, &s); err != nil {
		fmt.Fprintf(os.Stderr, "nb: sandbox helper: bad spec: %v\n", err)
		return true, 126
	}
	if err := enterLandlock(s, args[3:]); err != nil {
		fmt.Fprintf(os.Stderr, "nb: sandbox: %v\n", err)
		return true, 126
	}
	return true, 0
}

// helperWired says that this program called MaybeHelper: its binary,
// executed again with HelperArg, is the helper. Another one (a test
// binary of another package) would run itself again instead.
var helperWired atomic.Bool

// helperProgram is the program to execute as the helper: self when
// given, else this program's binary when it is wired.
func helperProgram(self string) (string, error) {
	switch {
	case self != "":
		return self, nil
	case !helperWired.Load():
		return "", errors.New("this program does not run nb's sandbox helper")
	}
	return os.Executable()
}

// helperArgv is the argv that runs argv inside the Landlock sandbox.
func helperArgv(self string, s helperSpec, argv []string) ([]string, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("sandbox spec: %w", err)
	}
	out := make([]string, 0, len(argv)+4)
	out = append(out, self, HelperArg, string(b), "--")
	return append(out, argv...), nil
}
