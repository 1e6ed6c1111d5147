package fleet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Result is the answer of one fan-out (SPEC §14), as the model, `nb
// tool`, `--output-format json` and `nb mcp serve` receive it.
type Result struct {
	Summary Summary `json:"summary"`
	// Groups gather the hosts whose stdout, stderr and exit code are
	// identical, largest first.
	Groups []Group `json:"groups"`
	// Errors are the hosts that did not run (or were stopped before they
	// ended).
	Errors []HostError `json:"errors"`
	// OutputDir holds HOST.stdout, HOST.stderr of every host and
	// hosts.tsv (host, status, exit code, error).
	OutputDir  string `json:"outputDir,omitempty"`
	DurationMs int64  `json:"durationMs"`
	Note       string `json:"note,omitempty"`

	// Duration and Hosts are for the terminal and the audit log.
	Duration time.Duration `json:"-"`
	Hosts    []*HostResult `json:"-"`
}

// Summary counts the hosts by outcome.
type Summary struct {
	Total       int `json:"total"`
	OK          int `json:"ok"`
	Failed      int `json:"failed"`
	Unreachable int `json:"unreachable"`
	Refused     int `json:"refused"`
	TimedOut    int `json:"timedOut"`
	Interrupted int `json:"interrupted,omitempty"`
}

// Group is hosts with identical output.
type Group struct {
	Hosts    []string `json:"hosts"`
	ExitCode int      `json:"exitCode"`
	Stdout   string   `json:"stdout"`
	Stderr   string   `json:"stderr"`
	TimedOut bool     `json:"timedOut,omitempty"`
	// Interrupted: Ctrl+C stopped these hosts' commands.
	Interrupted bool `json:"interrupted,omitempty"`
}

// HostError is a host that did not run.
type HostError struct {
	Host  string `json:"host"`
	Error string `json:"error"`
}

func build(rs []*HostResult) *Result {
	res := &Result{Hosts: rs, Groups: []Group{}, Errors: []HostError{}}
	res.Summary.Total = len(rs)
	type key struct {
		sum    [2][32]byte
		code   int
		status Status
	}
	idx := map[key]int{}
	for _, r := range rs {
		switch r.Status {
		case StatusOK:
			res.Summary.OK++
		case StatusFailed:
			res.Summary.Failed++
		case StatusUnreachable:
			res.Summary.Unreachable++
		case StatusRefused:
			res.Summary.Refused++
		case StatusTimedOut:
			res.Summary.TimedOut++
		case StatusInterrupted:
			res.Summary.Interrupted++
		}
		if !r.Ran {
			res.Errors = append(res.Errors, HostError{Host: r.Host, Error: string(r.Status) + ": " + r.Error})
			continue
		}
		k := key{r.sum, r.ExitCode, r.Status}
		if i, ok := idx[k]; ok {
			res.Groups[i].Hosts = append(res.Groups[i].Hosts, r.Host)
			continue
		}
		idx[k] = len(res.Groups)
		res.Groups = append(res.Groups, Group{
			Hosts: []string{r.Host}, ExitCode: r.ExitCode, Stdout: r.Stdout.Text, Stderr: r.Stderr.Text,
			TimedOut: r.Status == StatusTimedOut, Interrupted: r.Status == StatusInterrupted,
		})
	}
	sort.SliceStable(res.Groups, func(i, j int) bool { return len(res.Groups[i].Hosts) > len(res.Groups[j].Hosts) })
	return res
}

// JSON is the result as the model receives it.
func (r *Result) JSON() string {
	r.DurationMs = r.Duration.Milliseconds()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(r)
	return strings.TrimSuffix(b.String(), "\n")
}

// Line is the one-line summary, what went wrong first so that a line cut
// to the terminal's width keeps it: "24 hosts: 1 refused (host key), 2
// unreachable, 21 ok · 2 distinct outputs".
func (r *Result) Line() string {
	return fmt.Sprintf("%d %s: %s", r.Summary.Total, plural(r.Summary.Total, "host", "hosts"), r.Counts())
}

// Counts is Line without the number of hosts (for a line that names it
// already): "1 refused (host key), 2 unreachable, 21 ok · 2 distinct
// outputs".
func (r *Result) Counts() string {
	s := r.Summary
	refused := "refused"
	if s.Refused > 0 {
		keys := 0
		for _, h := range r.Hosts {
			if h.hostKey {
				keys++
			}
		}
		if keys == s.Refused {
			refused = "refused (host key)"
		}
	}
	parts := []string{}
	for _, c := range []struct {
		n    int
		name string
	}{{s.Refused, refused}, {s.Unreachable, "unreachable"}, {s.TimedOut, "timed out"}, {s.Failed, "failed"}, {s.Interrupted, "interrupted"}, {s.OK, "ok"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.name))
		}
	}
	line := strings.Join(parts, ", ")
	if len(r.Groups) > 0 {
		line += fmt.Sprintf(" · %d distinct %s", len(r.Groups), plural(len(r.Groups), "output", "outputs"))
	}
	return line
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Text is the grouped result for a human, a few lines per group: the
// hosts (cut to a few names), the exit code and the first lines of the
// output, then the errors.
func (r *Result) Text(maxLines int) string {
	return r.Line() + "\n" + r.Details(maxLines)
}

// Details is Text without the summary line.
func (r *Result) Details(maxLines int) string {
	var b strings.Builder
	for _, g := range r.Groups {
		fmt.Fprintf(&b, "── %s (exit %d%s)\n", HostList(g.Hosts, 6), g.ExitCode, map[bool]string{true: ", timed out"}[g.TimedOut])
		out := strings.TrimRight(g.Stdout, "\n")
		if g.Stderr != "" {
			out = strings.TrimRight(out+"\n"+strings.TrimRight(g.Stderr, "\n"), "\n")
		}
		lines := strings.Split(strings.TrimLeft(out, "\n"), "\n")
		if out == "" {
			lines = nil
		}
		for i, l := range lines {
			if maxLines > 0 && i == maxLines {
				fmt.Fprintf(&b, "   … %d more lines\n", len(lines)-maxLines)
				break
			}
			b.WriteString("   " + l + "\n")
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "✗ %s: %s\n", e.Host, e.Error)
	}
	if r.OutputDir != "" {
		b.WriteString("outputs: " + r.OutputDir + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// HostList names hosts, the first max of them and a count of the rest.
func HostList(hosts []string, max int) string {
	if max <= 0 || len(hosts) <= max {
		return strings.Join(hosts, ", ")
	}
	return strings.Join(hosts[:max], ", ") + fmt.Sprintf(" and %d more", len(hosts)-max)
}
