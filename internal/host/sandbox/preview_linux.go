package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/sandbox/enter"
)

// Preview runs c as Run does, inside the same sandbox (network off unless
// allowed, secrets hidden, its own process namespace), but with every
// writable tree, the directories of places that may be overlaid
// (changes.Places.Choose: writable in the view, as the workspace is) and
// /tmp a copy-on-write overlay: what c writes lands in the returned
// Overlay and nowhere else. nb re-executes itself to mount
// the overlays in its own user and mount namespaces (overlayfs, as an
// unprivileged user may), then builds the view over them there (the
// namespace mechanism) or runs bubblewrap there, which binds them where
// it binds the trees. The caller closes the overlay.
func (h *Host) Preview(ctx context.Context, c *host.Command, places changes.Places) (*changes.Overlay, *host.Exit, error) {
	if err := h.previewable(); err != nil {
		return nil, nil, err
	}
	base, err := os.MkdirTemp(h.base, "preview-")
	if err != nil {
		return nil, nil, err
	}
	o := &changes.Overlay{Dir: base, Uppers: map[string]string{}, Later: h.inBackground}
	fail := func(err error) (*changes.Overlay, *host.Exit, error) {
		o.Close()
		return nil, nil, err
	}
	l := h.layout
	extra, skipped := places.Choose(append(slices.Clone(l.Writable), l.Scratch...), l.unreadable())
	o.Skipped = skipped
	if len(extra) > 0 {
		l.Writable = uniqSorted(append(slices.Clone(l.Writable), extra...))
		l.ReadOnly = slices.Clone(l.ReadOnly)
		for _, d := range extra {
			l.ReadOnly = append(l.ReadOnly, filepath.Join(d, ".git"))
		}
		l.ReadOnly = uniqSorted(l.ReadOnly)
	}
	l = l.Current()
	var mounts []enter.OverlayMount
	for i, w := range l.Writable {
		if _, ok := exists(w); !ok {
			continue
		}
		if !overlayPathOK(w) {
			return fail(fmt.Errorf("%w: overlayfs cannot name %s (a comma, colon or backslash)", changes.ErrNoPreview, w))
		}
		m, err := newOverlay(base, fmt.Sprint(i), w, w)
		if err != nil {
			return fail(err)
		}
		o.Uppers[w] = m.Upper
		mounts = append(mounts, m)
	}
	// /tmp: an empty tree below, so the command sees a private /tmp
	// whose writes are seen too.
	tmp, err := newOverlay(base, "tmp", filepath.Join(base, "tmp-lower"), filepath.Join(base, "tmp-view"))
	if err != nil {
		return fail(err)
	}
	for _, d := range []string{tmp.Lower, tmp.Target} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return fail(err)
		}
	}
	o.Tmp = tmp.Upper
	mounts = append(mounts, tmp)
	spec, err := json.Marshal(mounts)
	if err != nil {
		return fail(err)
	}
	wrap := func(w *host.Launch) error {
		files := h.covers()
		if f, err := enter.SeccompFile(l.Network); err == nil {
			// the overlay helper executes bubblewrap: the descriptor
			// reaches it
			files.seccomp = 3 + len(w.Files)
			w.Files = append(w.Files, f)
		}
		h.mu.Lock()
		plan := bwrapArgs(l, files, true, func(p string) bool { return h.created[p] })
		h.mu.Unlock()
		o.MountPoints = plan.Created
		args := replaceArgs(plan.Args, []string{"--tmpfs", "/tmp"}, []string{"--bind", tmp.Target, "/tmp"})
		out := []string{h.self, enter.OverlayArg, string(spec), "--", h.bwrap}
		out = append(out, args...)
		w.Argv = append(append(out, "--"), w.Argv...)
		return nil
	}
	procAttr := enter.ProcAttr
	if h.mech == MechanismNamespaces {
		// nb's own view, built by the helper over the overlays it mounts
		wrap = func(w *host.Launch) error {
			h.mu.Lock()
			plan := planMounts(l, h.covers(), func(p string) bool { return h.created[p] })
			h.mu.Unlock()
			o.MountPoints = plan.Created
			for i, m := range plan.Mounts {
				if m.Op == "--tmpfs" && m.Dest == "/tmp" {
					plan.Mounts[i] = enter.Mount{Op: "--bind", Src: tmp.Target, Dest: "/tmp"}
				}
			}
			spec := enter.Spec{NS: &enter.NSSpec{Mounts: plan.Mounts, Sealed: plan.Sealed}, Network: l.Network, Overlays: mounts}
			return h.launchNamespaces(w, func() enter.Spec { return spec })
		}
		procAttr = enter.ViewProcAttr(l.Network)
	}
	run := &host.Local{Shell: h.run.Shell, Env: h.run.Env, EnvPolicy: h.run.EnvPolicy, RuntimeDir: h.run.RuntimeDir, Wrap: wrap, ProcAttr: procAttr}
	d := &denialWriter{w: c.Stderr}
	cc := *c
	cc.Stderr = d
	ex, err := run.Run(ctx, &cc)
	if err != nil {
		return fail(err)
	}
	if ex.Code == 126 && (d.started("nb: preview") || d.started("nb: sandbox")) {
		// the helper failed (an overlay the kernel refused on a place's
		// file system): the command never ran
		d.mu.Lock()
		head := string(d.head)
		d.mu.Unlock()
		return fail(fmt.Errorf("%w: %s", changes.ErrNoPreview, strings.TrimPrefix(firstLine(head, errors.New("exit 126")), "nb: ")))
	}
	if lines := d.seen(); ex.Code != 0 && len(lines) > 0 {
		if why := explain(l, lines, c.Dir, false); why != "" {
			ex.Sandboxed, ex.SandboxReason = true, why
		}
	}
	return o, ex, nil
}

// inBackground runs f off the command's way; Close waits for it.
func (h *Host) inBackground(f func()) {
	h.background.Go(f)
}

// newOverlay makes the upper and work directories of an overlay of lower
// seen at target.
func newOverlay(base, name, lower, target string) (enter.OverlayMount, error) {
	m := enter.OverlayMount{Lower: lower, Upper: filepath.Join(base, "up-"+name), Work: filepath.Join(base, "work-"+name), Target: target}
	for _, d := range []string{m.Upper, m.Work} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return m, err
		}
	}
	return m, nil
}

// replaceArgs replaces the first run of old in args by repl.
func replaceArgs(args, old, repl []string) []string {
	for i := 0; i+len(old) <= len(args); i++ {
		if slices.Equal(args[i:i+len(old)], old) {
			return append(append(append([]string(nil), args[:i]...), repl...), args[i+len(old):]...)
		}
	}
	return args
}

// previewable checks once that nb can mount an overlay in its own
// namespaces here and build its view (or run bubblewrap) on it.
func (h *Host) previewable() error {
	h.probeOnce.Do(func() {
		if h.mech != MechanismBwrap && h.mech != MechanismNamespaces {
			h.probeErr = fmt.Errorf("%w: the sandbox here is Landlock (user namespaces are needed)", changes.ErrNoPreview)
			return
		}
		if h.self == "" {
			self, err := os.Executable()
			if err != nil {
				h.probeErr = fmt.Errorf("%w: %v", changes.ErrNoPreview, err)
				return
			}
			h.self = self
		}
		dir, err := os.MkdirTemp(h.base, "probe-")
		if err != nil {
			h.probeErr = fmt.Errorf("%w: %v", changes.ErrNoPreview, err)
			return
		}
		defer (&changes.Overlay{Dir: dir}).Close()
		m, err := newOverlay(dir, "p", filepath.Join(dir, "lower"), filepath.Join(dir, "lower"))
		if err == nil {
			err = os.Mkdir(m.Lower, 0o700)
		}
		if err != nil {
			h.probeErr = fmt.Errorf("%w: %v", changes.ErrNoPreview, err)
			return
		}
		probe := []string{"/bin/sh", "-c", "echo x > " + filepath.Join(m.Target, "probe")}
		spec, _ := json.Marshal([]enter.OverlayMount{m})
		cmd := exec.Command(h.self, append([]string{enter.OverlayArg, string(spec), "--", h.bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev",
			"--bind", m.Target, m.Target, "--"}, probe...)...)
		cmd.SysProcAttr = &syscall.SysProcAttr{}
		enter.ProcAttr(cmd.SysProcAttr)
		if h.mech == MechanismNamespaces {
			argv, err := enter.Argv(h.self, enter.Spec{NS: &enter.NSSpec{Mounts: []enter.Mount{{Op: "--bind", Src: m.Target, Dest: m.Target}}},
				Overlays: []enter.OverlayMount{m}}, probe)
			if err != nil {
				h.probeErr = fmt.Errorf("%w: %v", changes.ErrNoPreview, err)
				return
			}
			cmd = exec.Command(argv[0], argv[1:]...)
			cmd.SysProcAttr = &syscall.SysProcAttr{}
			enter.ViewProcAttr(false)(cmd.SysProcAttr)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			h.probeErr = fmt.Errorf("%w: an overlay cannot be mounted here: %s", changes.ErrNoPreview, strings.TrimSpace(firstLine(string(out), err)))
			return
		}
		if _, err := os.Stat(filepath.Join(m.Upper, "probe")); err != nil {
			h.probeErr = fmt.Errorf("%w: the overlay kept nothing", changes.ErrNoPreview)
		}
	})
	return h.probeErr
}

// overlayPathOK reports a path overlayfs's options can name: no comma,
// colon or backslash, which its option syntax would read.
func overlayPathOK(p string) bool { return !strings.ContainsAny(p, ",:\\") }
