package runcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// SetCwd is the set_cwd tool. It checks the directory on the active host by
// running `cd -- PATH` there, so it works for remote hosts too, and takes the
// directory the shell measured.
type SetCwd struct{ opts Options }

type setCwdArgs struct {
	Path string `json:"path"`
}

// Spec implements tool.Tool.
func (t *SetCwd) Spec() llm.ToolSpec {
	schema := `{"type":"object","properties":{"path":{"type":"string","description":"The new working directory: absolute, relative to the current one, or ~/..."}},"required":["path"],"additionalProperties":false}`
	return llm.ToolSpec{Name: "set_cwd", Description: strings.TrimSpace(setCwdDescription), Schema: json.RawMessage(schema)}
}

func (t *SetCwd) parse(call *tool.Call) (string, error) {
	var a setCwdArgs
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return "", err
	}
	if strings.TrimSpace(a.Path) == "" {
		return "", errPathRequired
	}
	return a.Path, nil
}

type argError string

func (e argError) Error() string { return string(e) }

const errPathRequired = argError("path is required and must be a non-empty string")

// Review implements tool.Tool: the target is resolved against at.Cwd and
// checked on the host the call was reviewed for.
func (t *SetCwd) Review(ctx context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	path, err := t.parse(call)
	if err != nil {
		return nil, err
	}
	home := t.opts.Getenv("HOME")
	h := t.opts.Hosts.Get()
	target := resolve(at.Cwd, path, home)
	d := t.opts.Policy.Decide(policy.Action{
		Kind: policy.SetCwd, Path: target, Shown: path,
		Where: tool.Where(at.Cwd, home, h),
	})
	// The host's shell resolves ~ with its own HOME; only a local target
	// is known before the call runs.
	after := target
	if strings.HasPrefix(path, "~") && h.Isolation() != host.IsolationNone {
		after = ""
	}
	return &tool.Invocation{Decision: d, CwdAfter: after, Run: func(ctx context.Context) (*tool.Result, error) {
		return t.run(ctx, h, at.Cwd, path)
	}}, nil
}

func (t *SetCwd) run(ctx context.Context, h host.Host, cwd, path string) (*tool.Result, error) {
	var stderr bytes.Buffer
	dir := cwd
	if strings.HasPrefix(path, "/") || strings.HasPrefix(path, "~") {
		dir = "/" // works even when the current directory was removed
	}
	ex, err := h.Run(ctx, &host.Command{
		Script:  "cd -- " + cdWord(path),
		Dir:     dir,
		Stderr:  &stderr,
		Timeout: 10 * time.Second,
	})
	if err != nil {
		return tool.Errorf("set_cwd: %v", err), nil
	}
	if ex.Code != 0 || ex.Cwd == "" {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.Index(msg, "cd: "); i >= 0 {
			msg = msg[i+4:]
		}
		if msg == "" {
			msg = path + ": cannot change to this directory"
		}
		return tool.Errorf("set_cwd: %s", msg), nil
	}
	t.opts.Workdir.SetCwd(ex.Cwd)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]string{"cwd": ex.Cwd})
	code := 0
	return &tool.Result{Content: strings.TrimSuffix(b.String(), "\n"), ExitCode: &code, Duration: ex.Duration, Note: ex.Cwd}, nil
}

// cdWord quotes path for the shell, leaving a leading ~ or ~/ unquoted so
// the host's shell expands it with its own HOME.
func cdWord(path string) string {
	switch {
	case path == "~":
		return "~"
	case strings.HasPrefix(path, "~/"):
		return "~/" + quote(path[2:])
	}
	return quote(path)
}

func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
