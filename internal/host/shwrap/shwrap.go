// Package shwrap wraps a user's script for hosts that run it through a
// shell they do not control (ssh, docker): the script travels intact as
// one argument, and the wrapper reports its process group and, when the
// shell exits, the exit status and working directory, on stderr between
// RS (\036) characters tagged with a random marker. Filter takes the
// reports back out of the stream.
package shwrap

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Quote makes s one word for a POSIX shell.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// NewMarker returns a fresh random marker.
func NewMarker() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "nb" + hex.EncodeToString(b[:])
}

const (
	plain   = `cd -- "$1" || exit 1; shift; `
	tracked = `printf '\036%sP%s\036' "$0" "$$" >&2; trap 'printf "\036%sC%s:%s\036" "$0" "$?" "$PWD" >&2' EXIT; cd -- "$1" || exit 1; shift; `
	run     = `eval "$1"`
)

// Args are the arguments after the shell: -c wrapper marker dir script.
// With track the wrapper reports its pid, exit status and directory.
// prelude is shell code run just before the script, in the same shell
// (host.EnvPolicy.RemoteScrub); it must end with a separator.
func Args(marker, dir, script string, track bool, prelude string) []string {
	w := plain
	if track {
		w = tracked
	}
	w += prelude + run
	if marker == "" {
		marker = "nb"
	}
	if dir == "" {
		dir = "."
	}
	return []string{"-c", w, marker, dir, script}
}

// SudoPrelude, run before a script in the shell that runs it, validates
// sudo's credentials with the password on standard input (sudo -S, no
// prompt): sudo keeps its time stamp per parent process, so the
// script's own sudo commands then need no password. When sudo refuses,
// the wrapper reports it (Filter.SudoRefused) and exits before the
// script; standard input is emptied either way, so nothing of it
// reaches the script.
const SudoPrelude = `if ! LC_ALL=C sudo -S -p '' -v; then exec </dev/null; printf '\036%sS\036' "$0" >&2; exit 1; fi; exec </dev/null; `

var envKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// CheckEnv validates KEY=VALUE entries.
func CheckEnv(env []string) error {
	for _, kv := range env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || !envKey.MatchString(k) {
			return fmt.Errorf("bad environment entry %q", kv)
		}
	}
	return nil
}

// CommandLine is a command string for a remote POSIX login shell: it
// exports env and runs shell (bash when present, else sh, when shell is
// "") with Args.
func CommandLine(shell, marker, dir, script string, env []string, track bool, prelude string) (string, error) {
	if err := CheckEnv(env); err != nil {
		return "", err
	}
	var b strings.Builder
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		b.WriteString("export " + k + "=" + Quote(v) + "; ")
	}
	var args strings.Builder
	for _, a := range Args(marker, dir, script, track, prelude) {
		args.WriteString(" " + Quote(a))
	}
	// The login shell has read the user's rc files already: a bash
	// started by sshd would read ~/.bashrc a second time without --norc.
	switch {
	case shell == "":
		b.WriteString("if command -v bash >/dev/null 2>&1; then exec bash --norc" + args.String() + "; else exec sh" + args.String() + "; fi")
	case path.Base(shell) == "bash":
		b.WriteString("exec " + Quote(shell) + " --norc" + args.String())
	default:
		b.WriteString("exec " + Quote(shell) + args.String())
	}
	return b.String(), nil
}

// Filter passes stderr through to W, taking out the wrapper's reports.
type Filter struct {
	w      io.Writer
	marker []byte
	held   []byte

	mu     sync.Mutex
	pid    int
	exited bool
	code   int
	cwd    string
	exitCh chan struct{}
	pidCh  chan struct{}
	// sudoRefused: SudoPrelude's sudo did not accept the password.
	sudoRefused bool
}

// NewFilter filters the reports tagged with marker out of a stream to w.
func NewFilter(w io.Writer, marker string) *Filter {
	return &Filter{w: w, marker: []byte("\036" + marker), exitCh: make(chan struct{}), pidCh: make(chan struct{})}
}

// Write implements io.Writer. It is not safe for concurrent use.
func (f *Filter) Write(p []byte) (int, error) {
	buf := append(f.held, p...)
	f.held = nil
	var out []byte
	for len(buf) > 0 {
		i := bytes.IndexByte(buf, '\036')
		if i < 0 {
			out = append(out, buf...)
			break
		}
		out = append(out, buf[:i]...)
		rest := buf[i:]
		if len(rest) < len(f.marker) {
			if bytes.HasPrefix(f.marker, rest) {
				f.held = append([]byte{}, rest...)
				break
			}
			out = append(out, rest[0])
			buf = rest[1:]
			continue
		}
		if !bytes.HasPrefix(rest, f.marker) {
			out = append(out, rest[0])
			buf = rest[1:]
			continue
		}
		end := bytes.IndexByte(rest[len(f.marker):], '\036')
		if end < 0 {
			if len(rest) > 8192 {
				out = append(out, rest[0])
				buf = rest[1:]
				continue
			}
			f.held = append([]byte{}, rest...)
			break
		}
		f.report(string(rest[len(f.marker) : len(f.marker)+end]))
		buf = rest[len(f.marker)+end+1:]
	}
	if len(out) > 0 && f.w != nil {
		if _, err := f.w.Write(out); err != nil {
			return len(p), err
		}
	}
	return len(p), nil
}

func (f *Filter) report(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case strings.HasPrefix(s, "P") && f.pid == 0:
		f.pid, _ = strconv.Atoi(s[1:])
		close(f.pidCh)
	case s == "S":
		f.sudoRefused = true
	case strings.HasPrefix(s, "C") && !f.exited:
		code, cwd, _ := strings.Cut(s[1:], ":")
		f.code, _ = strconv.Atoi(code)
		f.cwd = cwd
		f.exited = true
		close(f.exitCh)
	}
}

// Flush writes out anything held back.
func (f *Filter) Flush() {
	if len(f.held) > 0 && f.w != nil {
		_, _ = f.w.Write(f.held)
	}
	f.held = nil
}

// SudoRefused reports whether SudoPrelude's sudo refused the password.
func (f *Filter) SudoRefused() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sudoRefused
}

// Started is closed when the wrapper reported its process id.
func (f *Filter) Started() <-chan struct{} { return f.pidCh }

// Exited is closed when the shell reported its exit.
func (f *Filter) Exited() <-chan struct{} { return f.exitCh }

// State is what the wrapper reported so far.
func (f *Filter) State() (pid int, exited bool, code int, cwd string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pid, f.exited, f.code, f.cwd
}
