package runcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/fleet"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

const hostsDescription = "Run the command on these hosts of the user's inventory instead of the current machine, all at once: a host, a glob over host names (web-0*), @group (@all for every host), or a comma-separated list of those; !item leaves hosts out (@web,!web-03). " +
	"The result is JSON: summary counts (total, ok, failed, unreachable, refused, timedOut), groups of hosts whose output is identical (hosts, exitCode, stdout, stderr), errors of hosts that did not run, and outputDir holding every host's full output (HOST.stdout, HOST.stderr, hosts.tsv) to grep. " +
	"Commands run in each host's login directory unless cwd (absolute) is given; the session working directory does not change."

// hostsArg is the hosts argument: a selection string, or (as models
// sometimes send it) an array of selections, joined with commas.
type hostsArg string

func (h *hostsArg) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*h = hostsArg(s)
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("hosts must be a string such as \"web-0*,@db\"")
	}
	*h = hostsArg(strings.Join(list, ","))
	return nil
}

// reviewFleet reviews a call with hosts: the selection is resolved now,
// the command decided once for all of them, and the invocation runs it on
// exactly those hosts.
func (t *RunCmd) reviewFleet(call *tool.Call, at tool.At, p *prepared) (*tool.Invocation, error) {
	if t.opts.Fleet == nil {
		return nil, fmt.Errorf("hosts is not available: nb has no fleet inventory")
	}
	f, err := t.opts.Fleet()
	if err != nil {
		return nil, fmt.Errorf("hosts: %w", err)
	}
	sel := strings.TrimSpace(string(p.Hosts))
	hosts, err := f.Inventory().Select(sel)
	if err != nil {
		return nil, fmt.Errorf("hosts: %w", err)
	}
	home := t.opts.Getenv("HOME")
	// The remote login directory is the remote home: ~ stands for it.
	dir, decideIn := "", home
	if p.Cwd != "" {
		if !path.IsAbs(p.Cwd) {
			return nil, fmt.Errorf("cwd must be an absolute path when hosts is given (got %q)", p.Cwd)
		}
		dir, decideIn = path.Clean(p.Cwd), path.Clean(p.Cwd)
	}
	names := make([]string, len(hosts))
	for i, h := range hosts {
		names[i] = h.Name
	}
	// the hosts' disks are not this one's: what the command reads there
	// is judged as a read of unknown files, never by local facts
	d := t.opts.Policy.Decide(policy.Action{
		Kind: policy.RunCommand, Command: p.Command,
		Where:     policy.CommandContext{Cwd: decideIn, Home: home, Isolation: policy.IsolationRemote, Facts: policy.UnknownFacts{}},
		Hosts:     names,
		Selection: sel,
	})
	return tool.Stays(at, d, func(ctx context.Context) (*tool.Result, error) {
		req := fleet.Request{Command: p.Command, Dir: dir, Timeout: p.timeout}
		if call.Live != nil {
			req.Progress = func(pr fleet.Progress) {
				call.Live("stdout", fmt.Appendf(nil, "%d/%d done · %s %s\n", pr.Done, pr.Total, pr.Host, pr.Status))
			}
		}
		var passwords *askpass.Passwords
		if t.opts.Sudo != nil && askpass.RunsSudo(p.Command) {
			req.Sudo = func(ctx context.Context, names []string) (fleet.SudoPasswords, error) {
				pw, err := t.opts.Sudo.Passwords(ctx, p.Command, names)
				if err != nil {
					return nil, err
				}
				passwords = pw
				return pw, nil
			}
		}
		res := f.Run(ctx, hosts, req)
		passwords.Wipe()
		if p.note != "" {
			res.Note = strings.TrimPrefix(res.Note+"; "+p.note, "; ")
		}
		code := 0
		if s := res.Summary; s.OK != s.Total {
			code = 1
		}
		outcomes := make([]tool.HostOutcome, len(res.Hosts))
		for i, h := range res.Hosts {
			outcomes[i] = tool.HostOutcome{Host: h.Host, Status: string(h.Status), Error: h.Error}
			if h.Ran {
				c := h.ExitCode
				outcomes[i].ExitCode = &c
			}
		}
		return &tool.Result{
			Content:  res.JSON(),
			ExitCode: &code,
			Duration: res.Duration,
			Note:     res.Counts(), // the call's line names the hosts
			Details:  res.Details(3),
			Hosts:    outcomes,
		}, nil
	}), nil
}
