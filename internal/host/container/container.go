// Package container runs commands in a container through the docker CLI:
// `docker exec` into a running container, or `docker run --rm` of an image
// with the workspace mounted at the same path. The engine is checked on
// first use, with a clear error when none answers.
package container

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/shwrap"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// Options configures a container host.
type Options struct {
	// Name is the provider name ("container" when empty).
	Name string
	// Docker is the CLI ("docker" when empty; podman works too).
	Docker string
	// Container is a running container to exec into; otherwise Image is
	// run with --rm for each command.
	Container string
	Image     string
	// LaunchDir is mounted read-write at the same path (run mode).
	LaunchDir string
	// Shell runs scripts in the container ("sh" when empty).
	Shell string
	// Env is the docker CLI's own environment (os.Environ() when nil).
	Env []string
	// EnvPolicy says which variables of the container's own environment
	// its commands see (host.EnvPolicy.RemoteScrub runs in the wrapper).
	EnvPolicy host.EnvPolicy
}

// Host is a container host.Host.
type Host struct {
	o Options

	mu      sync.Mutex
	checked bool
	names   map[string]struct{} // containers started by run mode, still running
}

var _ host.Host = (*Host)(nil)

// New validates o; the engine is reached on first use.
func New(o Options) (*Host, error) {
	if o.Container == "" && o.Image == "" {
		return nil, errors.New("container provider: set container (docker exec) or image (docker run)")
	}
	if o.Container == "" && o.LaunchDir == "" {
		return nil, errors.New("container provider: no workspace to mount")
	}
	if o.Name == "" {
		o.Name = "container"
	}
	if o.Docker == "" {
		o.Docker = "docker"
	}
	if o.Shell == "" {
		o.Shell = "sh"
	}
	return &Host{o: o, names: map[string]struct{}{}}, nil
}

// Name implements host.Host.
func (h *Host) Name() string { return h.o.Name }

// Isolation implements host.Host.
func (h *Host) Isolation() host.Isolation { return host.IsolationContainer }

// Describe is a one-line summary for the user.
func (h *Host) Describe() string {
	if h.o.Container != "" {
		return "container " + h.o.Container + " (docker exec)"
	}
	return "image " + h.o.Image + " (docker run --rm, workspace " + h.o.LaunchDir + " mounted)"
}

func (h *Host) env() []string {
	if h.o.Env != nil {
		return h.o.Env
	}
	return os.Environ()
}

// Check asks the engine for its version; the error says clearly when no
// engine answers.
func (h *Host) Check(ctx context.Context) error {
	h.mu.Lock()
	ok := h.checked
	h.mu.Unlock()
	if ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.o.Docker, "version", "--format", "{{.Server.Version}}")
	cmd.Env = h.env()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if msg == "" {
			msg = err.Error()
		}
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = strings.TrimSpace(msg[i+1:])
		}
		return fmt.Errorf("container provider: no Docker engine answers: %s", msg)
	}
	h.mu.Lock()
	h.checked = true
	h.mu.Unlock()
	return nil
}

// argv builds the docker command running shell args in the container.
func (h *Host) argv(name, dir string, env []string, tty bool, args []string) []string {
	a := []string{h.o.Docker}
	if h.o.Container != "" {
		a = append(a, "exec", "-i")
	} else {
		a = append(a, "run", "--rm", "-i", "--name", name, "--init", "-v", h.o.LaunchDir+":"+h.o.LaunchDir)
	}
	if tty {
		a = append(a, "-t")
	}
	if dir != "" {
		a = append(a, "-w", dir)
	}
	for _, kv := range env {
		a = append(a, "-e", kv)
	}
	if h.o.Container != "" {
		a = append(a, h.o.Container)
	} else {
		a = append(a, h.o.Image)
	}
	a = append(a, h.o.Shell)
	return append(a, args...)
}

// orphanGrace is how long output may stay open after the shell exited.
const orphanGrace = 500 * time.Millisecond

// Run implements host.Host. The wrapper reports the shell's process group,
// exit status and final directory; a timeout or cancellation signals the
// group inside the container (killing the CLI alone would not).
func (h *Host) Run(ctx context.Context, c *host.Command) (*host.Exit, error) {
	if err := h.Check(ctx); err != nil {
		return nil, err
	}
	if err := shwrap.CheckEnv(c.Env); err != nil {
		return nil, fmt.Errorf("container run: %w", err)
	}
	start := time.Now()
	marker := shwrap.NewMarker()
	env := append(append([]string{}, host.NonInteractiveEnv...), c.Env...)
	argv := h.argv(marker, c.Dir, env, false, shwrap.Args(marker, c.Dir, c.Script, true, h.o.EnvPolicy.RemoteScrub()))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = h.env()
	ownGroup(cmd)
	filter := shwrap.NewFilter(c.Stderr, marker)
	cmd.Stdout = orDiscard(c.Stdout)
	cmd.Stderr = filter
	cmd.WaitDelay = 2 * time.Second
	if h.o.Container == "" {
		h.mu.Lock()
		h.names[marker] = struct{}{}
		h.mu.Unlock()
		defer func() {
			h.mu.Lock()
			delete(h.names, marker)
			h.mu.Unlock()
		}()
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("container run: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timeout, stopTimeout := c.Deadline()
	defer stopTimeout()
	grace := c.Grace()
	ex := &host.Exit{}
	var err error
	select {
	case err = <-done:
	case <-filter.Exited():
		// The shell has exited; processes it left in the background may
		// hold the output open.
		t := time.NewTimer(orphanGrace)
		select {
		case err = <-done:
		case <-t.C:
			ex.Orphans = true
			h.signal(marker, filter, "KILL")
			killGroup(cmd)
			err = <-done
		}
		t.Stop()
	case <-timeout:
		ex.TimedOut = true
		err = h.stop(cmd, marker, filter, done, grace)
	case <-ctx.Done():
		ex.Interrupted = true
		err = h.stop(cmd, marker, filter, done, grace)
	}
	filter.Flush()
	_, exited, code, cwd := filter.State()
	ex.Code = exitCode(err)
	if exited {
		ex.Cwd = cwd
		if !ex.TimedOut && !ex.Interrupted {
			ex.Code = code
		}
	}
	if (ex.TimedOut || ex.Interrupted) && ex.Code == 0 {
		ex.Code = 128 + 15
	}
	ex.Duration = time.Since(start)
	return ex, nil
}

func (h *Host) stop(cmd *exec.Cmd, name string, f *shwrap.Filter, done <-chan error, grace time.Duration) error {
	if h.o.Container != "" {
		// exec mode: the process group is known once the shell started.
		wait := time.NewTimer(5 * time.Second)
		select {
		case <-f.Started():
		case err := <-done:
			wait.Stop()
			return err
		case <-wait.C:
		}
		wait.Stop()
	}
	h.signal(name, f, "TERM")
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
	}
	h.signal(name, f, "KILL")
	killGroup(cmd)
	return <-done
}

// signal sends sig to the command inside the container.
func (h *Host) signal(name string, f *shwrap.Filter, sig string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var cmd *exec.Cmd
	if h.o.Container == "" {
		cmd = exec.CommandContext(ctx, h.o.Docker, "kill", "--signal", sig, name)
	} else {
		pid, _, _, _ := f.State()
		if pid <= 1 {
			return
		}
		cmd = exec.CommandContext(ctx, h.o.Docker, "exec", h.o.Container, "kill", "-"+sig, "--", fmt.Sprintf("-%d", pid))
	}
	cmd.Env = h.env()
	_ = cmd.Run()
}

// StartPTY implements host.Host: docker -t on a local PTY.
func (h *Host) StartPTY(ctx context.Context, c *host.PTYCommand) (host.Terminal, error) {
	if err := h.Check(ctx); err != nil {
		return nil, err
	}
	if err := shwrap.CheckEnv(c.Env); err != nil {
		return nil, fmt.Errorf("container pty: %w", err)
	}
	name := shwrap.NewMarker()
	args := shwrap.Args("", c.Dir, c.Script, false, h.o.EnvPolicy.RemoteScrub())
	// The docker CLI's own environment: its DOCKER_* settings pass.
	l := &host.Local{Env: h.env(), EnvPolicy: host.EnvPolicy{Pass: []string{"DOCKER_*"}}, Wrap: func(w *host.Launch) error {
		w.Argv = h.argv(name, c.Dir, c.Env, true, args)
		return nil
	}}
	local := *c
	local.Dir, local.Env = "", nil
	return l.StartPTY(ctx, &local)
}

// Probe implements host.Host: it describes the container's system.
func (h *Host) Probe(ctx context.Context, detect []string) (*sysinfo.Info, error) {
	script := "set -- "
	for _, t := range detect {
		script += shwrap.Quote(t) + " "
	}
	script += "\n" + shwrap.ProbeScript
	var out, errb bytes.Buffer
	dir := h.o.LaunchDir
	if h.o.Container != "" {
		dir = ""
	}
	ex, err := h.Run(ctx, &host.Command{Script: script, Dir: dir, Stdout: &out, Stderr: &errb, Timeout: 30 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	if ex.Code != 0 {
		return nil, fmt.Errorf("probe: exit %d: %s", ex.Code, strings.TrimSpace(errb.String()))
	}
	return shwrap.ParseProbe(out.String(), detect), nil
}

// Close implements host.Host: run-mode containers still running are
// killed.
func (h *Host) Close() error {
	h.mu.Lock()
	var names []string
	for n := range h.names {
		names = append(names, n)
	}
	h.mu.Unlock()
	for _, n := range names {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, h.o.Docker, "kill", n)
		cmd.Env = h.env()
		_ = cmd.Run()
		cancel()
	}
	return nil
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if sig := signalOf(ee); sig > 0 {
			return 128 + sig
		}
		return ee.ExitCode()
	}
	return -1
}
