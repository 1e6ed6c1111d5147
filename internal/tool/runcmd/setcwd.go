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

// Review implements tool.Tool: changing directory needs no approval.
func (t *SetCwd) Review(ctx context.Context, call *tool.Call) (*policy.Decision, error) {
	path, err := t.parse(call)
	if err != nil {
		return nil, err
	}
	d := policy.Allowed("cd: " + resolve(t.opts.Workdir.Cwd(), path, t.opts.Getenv("HOME")))
	d.Subject = path
	return d, nil
}

// Run implements tool.Tool.
func (t *SetCwd) Run(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	path, err := t.parse(call)
	if err != nil {
		return tool.Errorf("%v", err), nil
	}
	var stderr bytes.Buffer
	dir := t.opts.Workdir.Cwd()
	if strings.HasPrefix(path, "/") || strings.HasPrefix(path, "~") {
		dir = "/" // works even when the current directory was removed
	}
	ex, err := t.opts.Hosts.Get().Run(ctx, &host.Command{
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
