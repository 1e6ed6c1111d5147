package policy

import (
	"fmt"
	"strings"
)

// shownHosts is how many host names a warned fleet command's reason line
// lists; `?` (Full) lists them all.
const shownHosts = 20

// onHosts makes a command's decision one for a fleet: the verdict, safety
// and grants are the command's (a command is no safer or riskier because
// it runs on many hosts, and --approve and grants match it as for one
// host), the display names the host count and the selection ("run on 24
// hosts (@web): uptime"), and a warned command lists the hosts.
func onHosts(d *Decision, a Action) {
	n := len(a.Hosts)
	where := fmt.Sprintf(" on %d host%s", n, map[bool]string{true: "", false: "s"}[n == 1])
	if sel := sanitize(a.Selection, false); sel != "" {
		where += " (" + sel + ")"
	}
	if i := strings.IndexByte(d.Display, ':'); i > 0 {
		d.Display = d.Display[:i] + where + d.Display[i:]
		// a mark at i (after the verb) stays before the hosts
		d.WarnAt = shiftMarks(d.WarnAt, i+1, len(where))
	} else {
		d.Display += where
	}
	hosts := make([]string, len(a.Hosts))
	for i, h := range a.Hosts {
		hosts[i] = sanitize(h, false)
	}
	full := d.Full
	if full == "" {
		full = a.Command
	}
	d.Full = full + fmt.Sprintf("\n\nhosts (%d): %s", n, strings.Join(hosts, ", "))
	if d.Warn {
		list := hosts
		more := ""
		if len(list) > shownHosts {
			list, more = list[:shownHosts], fmt.Sprintf(" and %d more", n-shownHosts)
		}
		// First, so the one reason line under the prompt shows it.
		d.Reasons = append([]string{fmt.Sprintf("on %d hosts: %s%s", n, strings.Join(list, ", "), more)}, d.Reasons...)
	}
}
