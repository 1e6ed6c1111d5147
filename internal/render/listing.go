package render

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/render/style"
)

// FormatGrants lists approval grants numbered from 1 for `/approvals`,
// ending with a newline:
//
//	approvals (revoke with /approvals revoke N)
//	  1  git status *   this project
//	  2  ls             this session
func FormatGrants(pal style.Palette, grants []policy.Grant) string {
	if len(grants) == 0 {
		return pal.Muted("no approvals yet: answer [a]lways at a prompt to add one") + "\n"
	}
	var b strings.Builder
	b.WriteString(pal.Bold("approvals") + pal.Muted(" (revoke with /approvals revoke N)") + "\n")
	numW := len(strconv.Itoa(len(grants)))
	ruleW := 0
	for _, g := range grants {
		ruleW = max(ruleW, style.Width(style.Sanitize(g.Rule)))
	}
	ruleW = min(ruleW, 60)
	for i, g := range grants {
		rule := style.Truncate(style.Sanitize(g.Rule), 60)
		scope := "this session"
		if g.Scope == policy.ScopeProject {
			scope = "this project"
		}
		pad := strings.Repeat(" ", max(ruleW-style.Width(rule), 0))
		fmt.Fprintf(&b, "  %s  %s%s  %s\n", pal.Accent(fmt.Sprintf("%*d", numW, i+1)), rule, pad, pal.Muted(scope))
	}
	return b.String()
}

// GrantIndex parses the N of `/approvals revoke N` against n grants and
// returns the zero-based index.
func GrantIndex(arg string, n int) (int, error) {
	i, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || i < 1 || i > n {
		if n == 0 {
			return 0, fmt.Errorf("no approvals to revoke")
		}
		return 0, fmt.Errorf("no approval %q: give a number from 1 to %d", arg, n)
	}
	return i - 1, nil
}

// SessionRow is one persistent terminal session for FormatSessions.
type SessionRow struct {
	ID       string
	Command  string
	Running  bool
	Uptime   time.Duration
	Position int64
}

// FormatSessions lists terminal sessions for `/sessions`, fitted to width
// (0: no limit), ending with a newline:
//
//	term-1  running  2m05s  npm run dev
//	term-2  exited   4.1s   python3
func FormatSessions(pal style.Palette, rows []SessionRow, width int) string {
	if len(rows) == 0 {
		return pal.Muted("no terminal sessions") + "\n"
	}
	idW, upW := 0, 0
	ups := make([]string, len(rows))
	for i, r := range rows {
		idW = max(idW, style.Width(r.ID))
		ups[i] = formatDuration(r.Uptime.Truncate(100 * time.Millisecond))
		upW = max(upW, len(ups[i]))
	}
	var b strings.Builder
	for i, r := range rows {
		state := pal.OK("running")
		if !r.Running {
			state = pal.Muted("exited ")
		}
		head := fmt.Sprintf("%-*s  %s  %-*s  ", idW, r.ID, state, upW, ups[i])
		cmd := strings.Join(strings.Fields(style.Sanitize(r.Command)), " ")
		if width > 0 {
			cmd = style.Truncate(cmd, max(width-style.Width(head), 8))
		}
		b.WriteString(pal.Accent(fmt.Sprintf("%-*s", idW, r.ID)) + head[idW:] + cmd + "\n")
	}
	return b.String()
}
