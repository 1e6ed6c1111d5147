// Package sandbox runs commands on this machine inside a sandbox: the
// system read-only, the workspace writable (its .git and the files that
// run later outside, RunLater, excepted), a private temporary directory,
// secrets hidden and the network off unless allowed. It builds the view
// itself, in namespaces of its own, through a re-execution of nb (package
// enter, the helper), else uses bubblewrap when installed and working,
// else Landlock through the same helper, which first binds the protected
// paths read-only in its own user and mount namespaces where the system
// allows them, and which supervises the command so that none of its
// processes outlives it.
// Entries that run later outside which a command creates are moved to a
// quarantine after it (quarantine.go). When neither
// works it refuses to start: there is no silent fallback to running
// unsandboxed.
package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/sandbox/enter"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// Mechanisms.
const (
	MechanismAuto     = "auto"
	MechanismBwrap    = "bwrap"
	MechanismLandlock = "landlock"
	// MechanismNamespaces is nb's own: the helper builds the view in new
	// namespaces itself (ns_linux.go), without bubblewrap's process.
	MechanismNamespaces = "namespaces"
)

// ErrUnavailable is returned when no sandboxing mechanism works here.
var ErrUnavailable = errors.New("sandbox unavailable: install bubblewrap (apt install bubblewrap) or use a kernel with Landlock")

// Options configures a sandbox host.
type Options struct {
	// Name is the provider name ("sandbox" when empty).
	Name string
	// Mechanism is auto (default), bwrap or landlock.
	Mechanism string
	// LaunchDir is the workspace, writable inside the sandbox.
	LaunchDir string
	// Home is the user's home, whose secrets directories are hidden.
	Home string
	// Writable are extra writable trees; Hidden are extra hidden paths
	// (nb's config and state directories belong here). "~/" is expanded.
	Writable []string
	Hidden   []string
	// AllowNetwork leaves the network on.
	AllowNetwork bool
	// Shell, Env and EnvPolicy are as in host.Local.
	Shell     string
	Env       []string
	EnvPolicy host.EnvPolicy
	// Self is nb's executable, re-executed as the Landlock helper
	// (os.Executable when empty).
	Self string
	// Bwrap is the bubblewrap binary ("bwrap" looked up when empty).
	Bwrap string
	// Quarantine is the directory (nb's state directory, hidden from the
	// sandbox) where entries that run later outside, created inside the
	// sandbox, are moved after the command; a directory of the user's
	// under the system's temporary directory when empty.
	Quarantine string

	// ReadOnly makes the read-only profile (readonly.go) instead of the
	// workspace one: LaunchDir is readable, not writable, Writable is
	// ignored, and Env is kept to DefaultEnvAllow and EnvAllow.
	ReadOnly bool
	// HomeVisible extends DefaultHomeVisible and EnvAllow extends
	// DefaultEnvAllow, in the read-only profile.
	HomeVisible []string
	EnvAllow    []string
	// Outside is the host a re-run outside the sandbox goes to
	// (Unsandboxed); a local host with Shell, Env and EnvPolicy when nil.
	Outside host.Host

	// CheckCache is a file of nb's state directory remembering that the
	// mechanism worked here (checkcache.go); "" checks at every New.
	CheckCache string
	// Index is a file of nb's state directory keeping what the read-only
	// profile's walks found between processes (index.go); "" keeps it
	// for the host's life only.
	Index string

	// noNamespaces makes the Landlock helper run without its user and
	// mount namespaces, as where the system refuses them (tests).
	noNamespaces bool
	// sys replaces the system's places the read-only profile reads
	// (tests).
	sys *sysPlaces
}

// Host is a sandboxed host.Host.
type Host struct {
	name   string
	mech   string
	layout Layout
	bwrap  string
	self   string
	// ns: the Landlock helper runs in its own user and mount namespaces
	// and binds the protected paths read-only; nsErr says why not.
	ns        bool
	nsErr     error
	base      string   // private directory: empty dir, empty file, tmp
	env       []string // the environment before the sandbox's changes
	envPolicy host.EnvPolicy
	run       *host.Local
	pty       *host.Local
	// ro is the read-only profile's spec, nil for the workspace profile.
	ro *readOnlySpec
	// outside is Options.Outside.
	outside host.Host
	// filterErr says why unix sockets stay reachable (no socket filter
	// for this architecture), nil when they do not.
	filterErr error
	// cache remembers that the mechanism works (Options.CheckCache).
	cache checkCache

	// background is what runs off the command's way: the views being
	// handed to namespace helpers (launchNamespaces), previews' overlays
	// being removed; Close waits for it.
	background sync.WaitGroup
	mu         sync.Mutex
	created    map[string]bool
	qparent    string // Options.Quarantine
	qdir       string // this host's quarantine, created on first use
	// pending are messages of sweeps after terminal sessions, told with
	// the next command's result.
	pending []string
	// previewProbe says whether overlays work here, for previews.
	previewProbe
}

var _ host.Host = (*Host)(nil)

// New checks that a mechanism works and returns the host. The error wraps
// ErrUnavailable when none does.
func New(o Options) (*Host, error) {
	if o.LaunchDir == "" {
		return nil, errors.New("sandbox: no launch directory")
	}
	keepInheritedFiles()
	h := &Host{name: o.Name, created: map[string]bool{}, qparent: o.Quarantine, outside: o.Outside}
	if h.name == "" {
		h.name = "sandbox"
	}
	mech := o.Mechanism
	if mech == "" {
		mech = MechanismAuto
	}
	var reasons []string
	switch runtime.GOOS {
	case "linux":
	case "darwin":
		if mech != MechanismAuto && mech != MechanismSeatbelt {
			return nil, fmt.Errorf("sandbox: unknown mechanism %q on macOS (auto or seatbelt)", mech)
		}
		if _, err := os.Stat(seatbeltExec); err != nil {
			return nil, fmt.Errorf("%w (%s is missing)", ErrUnavailable, seatbeltExec)
		}
		h.mech, mech = MechanismSeatbelt, MechanismSeatbelt
	default:
		return nil, fmt.Errorf("%w (not available on %s)", ErrUnavailable, runtime.GOOS)
	}
	if h.mech == "" && runtime.GOOS == "linux" && (mech == MechanismAuto || mech == MechanismNamespaces) {
		err := h.checkView(o)
		if err == nil {
			h.mech = MechanismNamespaces
		} else if mech == MechanismNamespaces {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		} else {
			reasons = append(reasons, err.Error())
		}
	}
	if h.mech == "" && (mech == MechanismAuto || mech == MechanismBwrap) {
		p, err := findBwrap(o.Bwrap, checkCache{o.CheckCache})
		if err == nil {
			h.bwrap = p
			h.mech = MechanismBwrap
		} else if mech == MechanismBwrap {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		} else {
			reasons = append(reasons, err.Error())
		}
	}
	if h.mech == "" && (mech == MechanismAuto || mech == MechanismLandlock) {
		err := enter.LandlockCheck(o.AllowNetwork)
		if err == nil {
			h.mech = MechanismLandlock
			if h.self, err = helperProgram(o.Self); err != nil {
				return nil, fmt.Errorf("sandbox: %w", err)
			}
		} else if mech == MechanismLandlock {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		} else {
			reasons = append(reasons, err.Error())
		}
	}
	if h.mech == MechanismLandlock {
		if err := h.checkLandlock(o); err != nil {
			return nil, err
		}
	}
	h.cache = checkCache{o.CheckCache}
	if h.mech == MechanismBwrap || h.mech == MechanismLandlock || h.mech == MechanismNamespaces {
		if f, err := enter.SeccompFile(false); err != nil {
			h.filterErr = err
		} else {
			f.Close()
		}
	}
	if h.mech == "" {
		if mech != MechanismAuto {
			return nil, fmt.Errorf("sandbox: unknown mechanism %q (auto, namespaces, bwrap or landlock)", mech)
		}
		return nil, fmt.Errorf("%w (%s)", ErrUnavailable, strings.Join(reasons, "; "))
	}
	base, err := os.MkdirTemp("", "nb-sandbox-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	h.base = base
	if err := prepareBase(base); err != nil {
		_ = os.RemoveAll(base)
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	runDir := resolve(filepath.Join(base, "run"))
	scratch := []string{runDir}
	if !h.mountsTmp() {
		// Landlock and Seatbelt cannot mount a private /tmp: a private
		// TMPDIR instead.
		scratch = append(scratch, resolve(filepath.Join(base, "tmp")))
	}
	environ := o.Env
	if environ == nil {
		environ = os.Environ()
	}
	h.env, h.envPolicy = host.CommandEnv(environ, o.EnvPolicy), o.EnvPolicy
	if o.ReadOnly {
		h.ro = newReadOnlySpec(o, environ, scratch)
		h.layout = Layout{Scratch: scratch}
		environ = allowEnv(environ, append(slices.Clone(DefaultEnvAllow), o.EnvAllow...))
	} else {
		h.layout = NewLayout(o.LaunchDir, o.Home, o.Writable, o.Hidden, o.AllowNetwork)
		h.layout.Scratch = scratch
	}
	env := host.CommandEnv(environ, o.EnvPolicy)
	// Agents and buses are ways out of the sandbox.
	env = dropEnv(env, "SSH_AUTH_SOCK", "DBUS_SESSION_BUS_ADDRESS")
	tmp := "/tmp"
	if !h.mountsTmp() {
		tmp = filepath.Join(base, "tmp")
	}
	env = setEnv(env, "TMPDIR", tmp)
	h.run = &host.Local{Shell: o.Shell, Env: env, EnvPolicy: o.EnvPolicy, RuntimeDir: runDir, Wrap: func(w *host.Launch) error { return h.wrap(w, false) }}
	h.pty = &host.Local{Shell: o.Shell, Env: env, EnvPolicy: o.EnvPolicy, RuntimeDir: runDir, Wrap: func(w *host.Launch) error { return h.wrap(w, true) }}
	switch {
	case h.mech == MechanismNamespaces:
		h.run.ProcAttr = enter.ViewProcAttr(h.layout.Network)
		h.pty.ProcAttr = h.run.ProcAttr
	case h.ns:
		h.run.ProcAttr, h.pty.ProcAttr = enter.ProcAttr, enter.ProcAttr
	}
	return h, nil
}

// mountsTmp says whether the mechanism gives the command a private /tmp
// of its own (bubblewrap, namespaces), rather than a private TMPDIR.
func (h *Host) mountsTmp() bool {
	return h.mech == MechanismBwrap || h.mech == MechanismNamespaces
}

// checkView checks that nb builds the namespace mechanism's view here
// (user namespaces allowed, mount_setattr known to the kernel, its own
// /proc mountable), or takes a success from the cache.
func (h *Host) checkView(o Options) error {
	self, err := helperProgram(o.Self)
	if err != nil {
		return err
	}
	cache, key := checkCache{o.CheckCache}, programKey(self)
	if _, ok := cache.get(MechanismNamespaces, key); !ok {
		network := o.AllowNetwork && !o.ReadOnly
		if _, err := checkHelper(self, enter.ViewProcAttr(network), enter.Spec{NS: &enter.NSSpec{}, Network: network}); err != nil {
			return fmt.Errorf("nb's own namespaces: %w", err)
		}
		cache.put(MechanismNamespaces, key, "works")
	}
	h.self = self
	return nil
}

// checkLandlock checks that nb enters the Landlock sandbox and whether it
// can do so in its own namespaces, or takes the answers from the cache.
func (h *Host) checkLandlock(o Options) error {
	cache, key := checkCache{o.CheckCache}, programKey(h.self)
	h.nsErr = errors.New("disabled")
	if o.noNamespaces {
		key = "" // tests: nothing kept
	}
	if ans, ok := cache.get(MechanismLandlock, key); ok {
		h.ns = ans == "namespaces"
		if !h.ns {
			h.nsErr = errors.New(strings.TrimPrefix(ans, "alone: "))
		}
		return nil
	}
	if _, err := checkHelper(h.self, nil, enter.Spec{Writable: []string{}}); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if !o.noNamespaces {
		h.nsErr = checkNamespaces(h.self, resolve(o.LaunchDir))
		h.ns = h.nsErr == nil
	}
	ans := "namespaces"
	if !h.ns {
		ans = "alone: " + h.nsErr.Error()
	}
	cache.put(MechanismLandlock, key, ans)
	return nil
}

// checkHelper runs the Landlock helper once with spec on a command
// exiting 42, started with attr's process attributes when set: any other
// status means self does not enter the sandbox (it does not link package
// enter) and nothing may run through it. It returns what the
// helper printed.
func checkHelper(self string, attr func(*syscall.SysProcAttr), spec enter.Spec) (string, error) {
	argv, err := enter.Argv(self, spec, []string{"/bin/sh", "-c", "exit 42"})
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if attr != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
		attr(cmd.SysProcAttr)
	}
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 42 {
		return out.String(), nil
	}
	return out.String(), fmt.Errorf("the landlock helper (%s %s) does not work: %w %s", self, enter.Arg, err, firstLine(out.String(), errors.New("")))
}

// checkNamespaces reports why the Landlock helper cannot run in its own
// user and mount namespaces and bind dir read-only there, or nil. User
// namespaces are refused where unprivileged ones are disabled
// (kernel.unprivileged_userns_clone=0, user.max_user_namespaces=0) or
// restricted (AppArmor's kernel.apparmor_restrict_unprivileged_userns).
func checkNamespaces(self, dir string) error {
	out, err := checkHelper(self, enter.ProcAttr, enter.Spec{Writable: []string{}, Mounts: true, ReadOnly: []string{dir}, PIDs: true, PrivateTmp: true, Keep: []string{dir}})
	if err == nil && strings.TrimSpace(out) != "" {
		err = errors.New(firstLine(out, nil))
	}
	if err != nil {
		var errno syscall.Errno
		if errors.As(err, &errno) {
			err = errno // the kernel refused the namespaces
		}
		return fmt.Errorf("user namespaces are not available to nb here (%v; see kernel.unprivileged_userns_clone, user.max_user_namespaces, kernel.apparmor_restrict_unprivileged_userns)", err)
	}
	return nil
}

func prepareBase(base string) error {
	if err := os.Mkdir(filepath.Join(base, "empty"), 0o555); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(base, "empty-file"), nil, 0o444); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(base, "denied-file"), nil, 0); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(base, "run"), 0o700); err != nil {
		return err
	}
	return os.Mkdir(filepath.Join(base, "tmp"), 0o700)
}

// findBwrap locates bubblewrap and checks that it can create a sandbox
// here (user namespaces may be disabled).
func findBwrap(p string, cache checkCache) (string, error) {
	if p == "" {
		p = "bwrap"
	}
	path, err := exec.LookPath(p)
	if err != nil {
		return "", errors.New("bubblewrap is not installed")
	}
	key := programKey(path)
	if _, ok := cache.get(MechanismBwrap, key); ok {
		return path, nil
	}
	defer func() {
		if err == nil {
			cache.put(MechanismBwrap, key, "works")
		}
	}()
	var out bytes.Buffer
	cmd := exec.Command(path, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true")
	cmd.Stdout = &out
	cmd.Stderr = &out
	if rerr := cmd.Run(); rerr != nil {
		err = fmt.Errorf("bubblewrap cannot create a sandbox here: %s", strings.TrimSpace(firstLine(out.String(), rerr)))
		return "", err
	}
	return path, nil
}

func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return err.Error()
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func dropEnv(env []string, keys ...string) []string {
	out := make([]string, 0, len(env))
	for _, e := range env {
		k, _, _ := strings.Cut(e, "=")
		if !slices.Contains(keys, k) {
			out = append(out, e)
		}
	}
	return out
}

func setEnv(env []string, k, v string) []string {
	out := make([]string, 0, len(env)+1)
	for _, e := range env {
		if !strings.HasPrefix(e, k+"=") {
			out = append(out, e)
		}
	}
	return append(out, k+"="+v)
}

// wrap prefixes the launch with the sandbox of its directory's layout.
func (h *Host) wrap(w *host.Launch, terminal bool) error {
	if h.mech == MechanismNamespaces {
		return h.wrapNamespaces(w, terminal)
	}
	l := h.layoutFor(w.Dir)
	defer h.keepIndex()
	switch h.mech {
	case MechanismBwrap:
		files := h.covers()
		if f, err := enter.SeccompFile(l.Network); err == nil {
			files.seccomp = 3 + len(w.Files)
			w.Files = append(w.Files, f)
		}
		h.mu.Lock()
		plan := bwrapArgs(l, files, !terminal, func(p string) bool { return h.created[p] })
		for _, c := range plan.Created {
			h.created[c] = true
		}
		h.mu.Unlock()
		out := make([]string, 0, len(plan.Args)+len(w.Argv)+2)
		out = append(out, h.bwrap)
		out = append(out, plan.Args...)
		out = append(out, "--")
		w.Argv = append(out, w.Argv...)
		// --unshare-all and --die-with-parent: its own process
		// namespace, whose first process dies with nb
		w.Contained = true
		return nil
	case MechanismLandlock:
		if h.ns {
			h.coverAbsent(l)
		}
		argv, err := enter.Argv(h.self, h.helperSpec(l, terminal), w.Argv)
		if err != nil {
			return err
		}
		w.Argv = argv
		return nil
	case MechanismSeatbelt:
		w.Argv = seatbeltArgv(l, w.Argv)
		return nil
	}
	return errors.New("sandbox: no mechanism")
}

// covers are the host's files a plan covers paths with (prepareBase
// made them).
func (h *Host) covers() bwrapFiles {
	return bwrapFiles{emptyDir: filepath.Join(h.base, "empty"), emptyFile: filepath.Join(h.base, "empty-file"), deniedFile: filepath.Join(h.base, "denied-file")}
}

// wrapNamespaces has the namespace helper started with the view of the
// command's directory (launchNamespaces).
func (h *Host) wrapNamespaces(w *host.Launch, terminal bool) error {
	dir := w.Dir
	return h.launchNamespaces(w, func() enter.Spec { return h.namespacesView(dir, terminal) })
}

// launchNamespaces makes w start the namespace helper at once, reading
// its view from a pipe (a descriptor above 2, so that its argv names no
// hidden path), and makes the view meanwhile: the helper's start (new
// namespaces, nb's start) and the layout's walks overlap. The helper
// builds nothing before the view is whole, and the command starts only
// after, so the view is of the disk as it was before the command. Then
// the walks' records are kept for the next process, off the command's
// way.
func (h *Host) launchNamespaces(w *host.Launch, view func() enter.Spec) error {
	r, wr, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	fd := 3 + len(w.Files)
	w.Files = append(w.Files, r)
	argv := make([]string, 0, len(w.Argv)+4)
	w.Argv = append(append(argv, h.self, enter.Arg, enter.SpecFromFD+strconv.Itoa(fd), "--"), w.Argv...)
	// The helper is the first process of its process namespace
	// (enter.ViewProcAttr) and gets nb's death signal.
	w.Contained = true
	h.background.Go(func() {
		defer h.keepIndex()
		// a helper that failed to start has closed its end: EPIPE; a
		// view that cannot be encoded leaves it nothing to read, and it
		// fails
		defer wr.Close()
		if spec, err := json.Marshal(view()); err == nil {
			_, _ = wr.Write(spec)
		}
	})
	return nil
}

// namespacesView is the namespace helper's view for a command run in dir.
func (h *Host) namespacesView(dir string, terminal bool) enter.Spec {
	l := h.layoutFor(dir)
	files := h.covers()
	h.mu.Lock()
	plan := planMounts(l, files, func(p string) bool { return h.created[p] })
	for _, c := range plan.Created {
		h.created[c] = true
	}
	h.mu.Unlock()
	return enter.Spec{NS: &enter.NSSpec{Mounts: plan.Mounts, Sealed: plan.Sealed}, Network: l.Network, Terminal: terminal}
}

// layoutFor is the layout of a command run in dir.
func (h *Host) layoutFor(dir string) Layout {
	if h.ro != nil {
		return h.ro.layout(dir)
	}
	return h.layout.Current()
}

// keepIndex writes what the read-only layouts' walks found for the next
// process (index.go), when it changed.
func (h *Host) keepIndex() {
	if h.ro != nil {
		h.ro.keepIndex()
	}
}

// helperSpec is what the Landlock helper enforces for layout l. With its
// own namespaces the helper gives the command a private /tmp holding
// l.Keep and the scratch directories, and its own process namespace;
// without them, in the read-only profile, /tmp is unreadable but for
// l.Keep.
func (h *Host) helperSpec(l Layout, terminal bool) enter.Spec {
	s := enter.Spec{
		Writable: l.Writable,
		Hidden:   l.unreadable(),
		ReadOnly: l.ReadOnly,
		Scratch:  l.Scratch,
		Network:  l.Network,
		Terminal: terminal,
		Mounts:   h.ns,
		PIDs:     h.ns,
	}
	for _, v := range l.Visible {
		s.Visible = append(s.Visible, resolve(v))
	}
	if h.ro != nil {
		if h.ns {
			s.PrivateTmp, s.Keep = true, l.Keep
		} else {
			s.Hidden = append(s.Hidden, "/tmp")
			s.Visible = append(s.Visible, l.Keep...)
		}
	}
	return s
}

// coverAbsent creates, for the helper to bind read-only (as bubblewrap's
// mount points), an empty .git in every writable tree that has none and
// an empty file or directory for every protected path that does not
// exist yet (coverFor): with the workspace writable, a repository could
// otherwise be planted with hooks, or an include file git reads once it
// exists written. Close removes them when still empty.
func (h *Host) coverAbsent(l Layout) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range l.Writable {
		git := filepath.Join(w, ".git")
		if _, ok := exists(git); ok {
			continue
		}
		if _, ok := exists(w); ok && os.Mkdir(git, 0o755) == nil {
			h.created[git] = true
		}
	}
	for p, dir := range l.Absent {
		if _, ok := exists(p); ok || !l.insideWritable(p) {
			continue
		}
		var err error
		if dir {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, nil, 0o644)
		}
		if err == nil {
			h.created[p] = true
		}
	}
}

// Name implements host.Host.
func (h *Host) Name() string { return h.name }

// Unsandboxed returns a host running with the same shell and environment
// outside the sandbox, for a re-run the user approved after Exit.Sandboxed.
// The caller closes it.
func (h *Host) Unsandboxed() host.Host {
	if h.outside != nil {
		return keepOpen{h.outside}
	}
	return &host.Local{Shell: h.run.Shell, Env: h.env, EnvPolicy: h.envPolicy}
}

// keepOpen is a host whose Close leaves it open: the re-run outside goes
// to the host the sandbox guards, which its owner closes.
type keepOpen struct{ host.Host }

func (keepOpen) Close() error { return nil }

// Isolation implements host.Host.
func (h *Host) Isolation() host.Isolation { return host.IsolationSandbox }

// Mechanism is bwrap or landlock.
func (h *Host) Mechanism() string { return h.mech }

// Layout is the enforced filesystem policy.
func (h *Host) Layout() Layout { return h.layout }

// Describe is a one-line summary for the user.
func (h *Host) Describe() string {
	if h.ro != nil {
		s := fmt.Sprintf("read-only sandbox (%s): nothing writable but a private /tmp, network off, no unix sockets, no host process, home's dot-files hidden but %d, the secret-file list masked", h.mech, len(h.ro.homeVisible))
		if h.mech == MechanismLandlock && !h.ns {
			s += fmt.Sprintf("; without user namespaces (%v) host processes are listed (their memory and environment stay out of reach) and the names in /tmp show", h.nsErr)
		}
		if h.filterErr != nil {
			s += "; " + h.filterErr.Error()
		}
		return s
	}
	net := "network off"
	if h.layout.Network {
		net = "network on"
	}
	s := fmt.Sprintf("sandbox (%s): writable %s, %d paths hidden, %s", h.mech, strings.Join(h.layout.Writable, ", "), len(h.layout.Hidden), net)
	if h.filterErr == nil {
		s += "; unix sockets refused"
	}
	if h.mech == MechanismLandlock {
		if !h.ns {
			s += fmt.Sprintf("; new entries cannot be created directly in the workspace nor in a directory holding .git, .envrc or another protected entry, because %v (install bubblewrap or allow user namespaces to lift this)", h.nsErr)
		}
	}
	s += "; .git and files run later outside (.envrc, .vscode, hooks …) read-only, new ones a command creates moved to quarantine after it"
	return s
}

// Run implements host.Host. A run whose stderr shows the sandbox refusing
// an operation has Exit.Sandboxed set. Entries that run later outside
// (RunLater) which the command created are moved to the quarantine once
// it has ended (host.Local ends its whole process group; bubblewrap's
// process namespace ends with it), and Exit.Notes says so.
func (h *Host) Run(ctx context.Context, c *host.Command) (*host.Exit, error) {
	d := &denialWriter{w: c.Stderr}
	cc := *c
	cc.Stderr = d
	if h.mech == MechanismLandlock || h.mech == MechanismNamespaces {
		// The helper's supervisor ends every process of the command
		// after the grace a SIGTERM gives; nb's own SIGKILL comes later,
		// so that it cannot end the supervisor first.
		g := c.Grace()
		cc.Env = append(slices.Clone(c.Env), enter.GraceEnv+"="+strconv.FormatInt(g.Milliseconds(), 10))
		cc.KillGrace = g + time.Second
	}
	before := h.snapshot()
	ex, err := h.run.Run(ctx, &cc)
	notes := h.sweep(before)
	h.mu.Lock()
	notes = append(h.pending, notes...)
	h.pending = nil
	if ex == nil {
		// nothing to carry them: told with the next result
		h.pending = notes
	}
	h.mu.Unlock()
	if ex == nil {
		return ex, err
	}
	ex.Notes = append(ex.Notes, notes...)
	if (h.mech == MechanismBwrap && ex.Code == 1 && d.started("bwrap: ")) || ((h.mech == MechanismLandlock || h.mech == MechanismNamespaces) && ex.Code == 126 && d.started("nb: sandbox: ")) {
		// the mechanism failed to start: check it again next time
		h.cache.put(h.mech, "", "")
	}
	if lines := d.seen(); ex.Code != 0 && len(lines) > 0 {
		dir := c.Dir
		if dir == "" {
			dir, _ = os.Getwd()
		}
		if why := explain(h.layoutFor(dir), lines, dir, !h.mountsTmp()); why != "" {
			ex.Sandboxed, ex.SandboxReason = true, why
		}
	}
	return ex, err
}

// StartPTY implements host.Host. The session's new RunLater entries are
// moved to the quarantine when it is closed (its process group ended),
// told with the next command's result.
func (h *Host) StartPTY(ctx context.Context, c *host.PTYCommand) (host.Terminal, error) {
	before := h.snapshot()
	t, err := h.pty.StartPTY(ctx, c)
	if err != nil {
		h.sweepLater(before)
		return nil, err
	}
	return &sweptTerminal{Terminal: t, h: h, before: before}, nil
}

func (h *Host) sweepLater(before map[string]bool) {
	notes := h.sweep(before)
	h.mu.Lock()
	h.pending = append(h.pending, notes...)
	h.mu.Unlock()
}

// sweptTerminal sweeps once, after the session's processes have ended.
type sweptTerminal struct {
	host.Terminal
	h      *Host
	before map[string]bool
	once   sync.Once
}

func (t *sweptTerminal) Close() error {
	err := t.Terminal.Close()
	t.once.Do(func() { t.h.sweepLater(t.before) })
	return err
}

// Probe implements host.Host.
func (h *Host) Probe(ctx context.Context, detect []string) (*sysinfo.Info, error) {
	return h.run.Probe(ctx, detect)
}

// Close implements host.Host: it removes the mount points bubblewrap had
// to create for protected paths, when still empty, and the private files.
func (h *Host) Close() error {
	h.background.Wait()
	h.keepIndex()
	h.mu.Lock()
	defer h.mu.Unlock()
	// deeper first: a cover may lie in another
	created := slices.Collect(maps.Keys(h.created))
	sort.Slice(created, func(i, j int) bool { return depth(created[i]) > depth(created[j]) })
	for _, p := range created {
		removeIfEmpty(p)
		delete(h.created, p)
	}
	_ = h.run.Close()
	_ = h.pty.Close()
	if h.base != "" {
		_ = os.Chmod(filepath.Join(h.base, "empty"), 0o700)
		_ = os.RemoveAll(h.base)
		h.base = ""
	}
	return nil
}

func removeIfEmpty(p string) {
	fi, err := os.Lstat(p)
	if err != nil {
		return
	}
	if fi.IsDir() {
		_ = os.Remove(p) // fails unless empty
		return
	}
	if fi.Mode().IsRegular() && fi.Size() == 0 {
		_ = os.Remove(p)
	}
}
