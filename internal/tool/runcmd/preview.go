package runcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/sandwich"
	"github.com/nb-cli/nb/internal/tool"
)

// Previewer runs a command in a copy-on-write view (sandbox.Host.Preview):
// what it writes lands in the overlay, never on disk.
// Besides the workspace it overlays the directories of the places the
// command names where it may (places).
type Previewer func(ctx context.Context, c *host.Command, places changes.Places) (*changes.Overlay, *host.Exit, error)

// previewed is a command's preview: the changes it made in the view and
// what it printed, or why there is none.
type previewed struct {
	set *changes.Set
	res result
	ex  *host.Exit
	// why says why there is no preview ("" when there is one).
	why string
}

// previewable reports whether the reviewed command gets a preview: it
// must be asked, only write files (the policy's OnlyWrites), run on a host
// that sees this machine's files, and previews be on.
func (t *RunCmd) previewable(d *policy.Decision, p *prepared) bool {
	iso := p.host.Isolation()
	return t.opts.Preview != nil && d.Decision == policy.Ask && d.OnlyWrites && p.Hosts == "" &&
		(iso == host.IsolationNone || iso == host.IsolationSandbox) && t.shellKind().Bashlike()
}

// preview runs p in the copy-on-write view and reads what it changed.
func (t *RunCmd) preview(ctx context.Context, d *policy.Decision, p *prepared) previewed {
	limits := sandwich.Limits{
		ThresholdBytes: t.opts.Config.OutputThresholdBytes,
		ThresholdLines: t.opts.Config.OutputThresholdLines,
		HeadLines:      t.opts.Config.SandwichHeadLines,
		TailLines:      t.opts.Config.SandwichTailLines,
		MaxLineBytes:   t.opts.Config.MaxLineBytes,
	}
	out := sandwich.New(sandwich.Options{Limits: limits, BinaryHint: t.shellKind().Hints().Binary})
	errc := sandwich.New(sandwich.Options{Limits: limits, BinaryHint: t.shellKind().Hints().Binary})
	places := changes.Places{Named: d.Paths, Refuse: func(dir string) string { return t.protected(dir, p) }}
	ov, ex, err := t.opts.Preview(ctx, &host.Command{Script: p.Command, Dir: p.dir, Stdout: out, Stderr: errc, Timeout: p.timeout}, places)
	outRes, _ := out.Close()
	errRes, _ := errc.Close()
	if err != nil {
		return previewed{why: strings.TrimPrefix(err.Error(), changes.ErrNoPreview.Error()+": ")}
	}
	defer ov.Close()
	pv := previewed{ex: ex, res: result{Stdout: outRes.Text, Stderr: errRes.Text, ExitCode: ex.Code, DurationMs: ex.Duration.Milliseconds(), Cwd: p.dir}}
	switch {
	case ex.TimedOut || ex.Interrupted:
		pv.why = "it did not finish in the preview"
		return pv
	case (ex.Sandboxed || ex.Code != 0) && len(ov.Skipped) > 0:
		// what it writes there fails in the view (read-only, or absent
		// from its private /tmp)
		pv.why = "it failed in the preview, and it names places the preview cannot make writable (" + strings.Join(ov.Skipped, "; ") + ")"
		return pv
	case ex.Sandboxed:
		pv.why = "in the preview the sandbox refused part of it (a write outside the workspace, the network, a hidden file)"
		return pv
	}
	if tmp := firstFile(ov.Tmp); tmp != "" {
		pv.why = "it writes outside the workspace (/tmp/" + tmp + ")"
		return pv
	}
	set := &changes.Set{}
	for tree, upper := range ov.Uppers {
		s, err := changes.FromOverlay(upper, tree)
		if err != nil {
			pv.why = "its changes could not be read: " + err.Error()
			return pv
		}
		for _, f := range s.Files {
			if !f.Before.Exists() && f.After.Type == changes.Dir && slices.Contains(ov.MountPoints, f.Path) {
				continue // the sandbox's, not the command's
			}
			set.Files = append(set.Files, f)
		}
	}
	pv.set = set
	return pv
}

// protected says why the policy keeps path from a write without the
// user whatever the approval mode (a secret, a system path or startup
// file, an entry programs run later, a deny rule), "" when it does not.
func (t *RunCmd) protected(path string, p *prepared) string {
	d := t.opts.Policy.Decide(policy.Action{Kind: policy.WriteFile, Path: path, Shown: path, Where: tool.Where(p.dir, t.home(), p.host)})
	if !d.Protected && d.DecidedBy != policy.ByDenyRule {
		return ""
	}
	var why []string
	for _, r := range d.Reasons {
		if r != "writes a file" {
			why = append(why, r)
		}
	}
	return strings.Join(why, ", ")
}

// firstFile is the first entry below dir that is not a directory (the
// mount points the sandbox makes are), relative to it; "" when none.
func firstFile(dir string) string {
	found := ""
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found != "" {
			return filepath.SkipAll
		}
		if !d.IsDir() {
			found, _ = filepath.Rel(dir, p)
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// withPreview turns the reviewed invocation of a command that only
// writes files into the approval of what its preview changed: the diff
// and the output are shown, and Run applies exactly those changes without
// running the command again. Without a preview it stays as it was, the
// reason said among the decision's.
func (t *RunCmd) withPreview(ctx context.Context, inv *tool.Invocation, p *prepared, cwd string) {
	d := inv.Decision
	pv := t.preview(ctx, d, p)
	if pv.set == nil {
		d.Reasons = append(d.Reasons, "no preview: "+pv.why)
		return
	}
	d.Reasons = append(d.Reasons, fmt.Sprintf("previewed in a copy-on-write view (exit %d): approving applies the changes shown without running it again", pv.ex.Code))
	for _, f := range pv.set.Files {
		if why := t.protected(f.Path, p); why != "" {
			d.Reasons = append(d.Reasons, "it changes "+changes.Shown(f.Path, p.dir)+": "+why)
			break
		}
	}
	pv.set.Output = previewOutput(pv.res)
	inv.Changes = pv.set
	inv.CwdAfter = cwd // the command does not run again: the shell stays
	inv.Run = func(ctx context.Context) (*tool.Result, error) { return t.applyPreview(p, pv) }
}

// previewOutput is what the preview printed, for the approval.
func previewOutput(r result) string {
	var b strings.Builder
	if r.Stdout != "" {
		b.WriteString(r.Stdout)
	}
	if r.Stderr != "" {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		b.WriteString(r.Stderr)
	}
	return b.String()
}

// applyPreview applies what the preview changed, if every file is still
// as the preview found it, and answers as the command would have.
func (t *RunCmd) applyPreview(p *prepared, pv previewed) (*tool.Result, error) {
	top := filepath.VolumeName(p.dir) + string(filepath.Separator)
	fsys, err := changes.Open(top)
	if err != nil {
		return nil, fmt.Errorf("run_cmd: %w", err)
	}
	defer fsys.Close()
	if err := changes.Apply(fsys, pv.set); err != nil {
		if c, ok := changes.IsConflict(err); ok {
			return tool.Errorf("not applied: %s changed on disk since the preview, so nothing was changed; run the command again to preview it anew", c.Path), nil
		}
		return tool.Errorf("not applied: %v", err), nil
	}
	r := pv.res
	n := len(pv.set.Visible())
	r.Note = fmt.Sprintf("previewed in a copy-on-write view and approved: nb applied the %d file changes it made without running it again", n)
	if n == 1 {
		r.Note = "previewed in a copy-on-write view and approved: nb applied the file change it made without running it again"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("run_cmd: %w", err)
	}
	code := pv.ex.Code
	return &tool.Result{
		Content: strings.TrimSuffix(b.String(), "\n"), ExitCode: &code, Duration: pv.ex.Duration,
		Note: "applied the previewed changes", Changes: pv.set,
	}, nil
}
