package runcmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/host"
)

// Sudo is what run_cmd needs of askpass.Sudo.
type Sudo interface {
	// Prepare readies one run of a command on this machine.
	Prepare(ctx context.Context, command string) (*askpass.Run, error)
	// Passwords are the sudo passwords of remote hosts that need one.
	Passwords(ctx context.Context, command string, hosts []string) (*askpass.Passwords, error)
}

// remoteSudo is a host whose sudo can be given its password over the
// connection (ssh).
type remoteSudo interface {
	host.Host
	SudoNeedsPassword(ctx context.Context) (bool, error)
	RunSudo(ctx context.Context, c *host.Command, password []byte) (*host.Exit, bool, error)
}

// runOn runs c (command's script) on h, letting the command's sudo ask the
// user for its password: on this machine through askpass's bridge, on an
// ssh host by feeding it over the connection. note says what sudo needed
// that the model should know. A sandbox cannot gain privileges: its sudo
// is left as it is.
func (t *RunCmd) runOn(ctx context.Context, h host.Host, command string, c *host.Command) (*host.Exit, string, error) {
	if t.opts.Sudo == nil {
		ex, err := h.Run(ctx, c)
		return ex, "", err
	}
	if h.Isolation() == host.IsolationNone {
		var notes []string
		r, err := t.opts.Sudo.Prepare(ctx, command)
		if err != nil {
			notes = append(notes, "sudo could not ask the user for a password: "+err.Error())
		}
		c.Env = append(c.Env, r.Env()...)
		ex, err := h.Run(ctx, c)
		if n := r.End().Note(); n != "" {
			notes = append(notes, n)
		}
		return ex, strings.Join(notes, "; "), err
	}
	if rs, ok := h.(remoteSudo); ok && askpass.RunsSudo(command) {
		if need, err := rs.SudoNeedsPassword(ctx); err == nil && need {
			return t.runRemoteSudo(ctx, rs, command, c)
		}
	}
	ex, err := h.Run(ctx, c)
	return ex, "", err
}

// runRemoteSudo asks the user for the password of sudo on h and runs c
// after sudo there accepted it.
func (t *RunCmd) runRemoteSudo(ctx context.Context, h remoteSudo, command string, c *host.Command) (*host.Exit, string, error) {
	pw, err := t.opts.Sudo.Passwords(ctx, command, []string{h.Name()})
	switch {
	case errors.Is(err, askpass.ErrNoTerminal):
		return nil, "", fmt.Errorf("%s (sudo on %s)", askpass.NoTerminalAdvice, h.Name())
	case err != nil:
		return nil, "", fmt.Errorf("sudo on %s needs a password: %w", h.Name(), err)
	}
	defer pw.Wipe()
	ex, accepted, err := h.RunSudo(ctx, c, pw.For(h.Name()))
	if err != nil || accepted {
		return ex, "", err
	}
	pw.Refused(h.Name())
	return ex, "sudo on " + h.Name() + " did not accept the password; the command did not run", nil
}
