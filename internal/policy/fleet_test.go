package policy

import (
	"fmt"
	"strings"
	"testing"
)

var remoteCC = CommandContext{Cwd: "/", Home: "/home/u", Isolation: IsolationRemote, Facts: NoFacts{}}

func fleetHosts(n int) []string {
	hs := make([]string, n)
	for i := range hs {
		hs[i] = fmt.Sprintf("web-%02d", i+1)
	}
	return hs
}

// TestFleetDecision: a command on many hosts is decided once, as the
// same command on one host; only the display (count and selection) and,
// for warned commands, the host list differ.
func TestFleetDecision(t *testing.T) {
	for _, c := range []struct {
		cmd, display string
		headless     bool
		approve      []string
		verdict      Verdict
		warn         bool
	}{
		{"uptime", "run on 24 hosts (@web): uptime", false, nil, Allow, false},
		{"cat /etc/os-release", "read on 24 hosts (@web): /etc/os-release", false, nil, Allow, false},
		{"systemctl restart nginx", "run on 24 hosts (@web): systemctl restart nginx", false, nil, Ask, false},
		{"systemctl restart nginx", "run on 24 hosts (@web): systemctl restart nginx", true, nil, Deny, false},
		{"systemctl restart nginx", "run on 24 hosts (@web): systemctl restart nginx", true, []string{"systemctl restart *"}, Allow, false},
		{"sudo rm -rf /var/cache/app", "run ⚠️ on 24 hosts (@web): sudo rm -rf /var/cache/app", false, nil, Ask, true},
	} {
		e := newEngine(t, func(o *Options) { o.Headless, o.Approve = c.headless, c.approve })
		one := e.Decide(Action{Kind: RunCommand, Command: c.cmd, Where: remoteCC})
		d := e.Decide(Action{Kind: RunCommand, Command: c.cmd, Where: remoteCC, Hosts: fleetHosts(24), Selection: "@web"})
		if d.Decision != one.Decision || d.Safety != one.Safety || d.Warn != one.Warn || d.OfferAlways != one.OfferAlways || d.Rule != one.Rule || d.Subject != one.Subject {
			t.Errorf("%q: fleet decision %+v differs from one host's %+v", c.cmd, d, one)
		}
		if d.Decision != c.verdict || marked(d) != c.display || d.Warn != c.warn {
			t.Errorf("%q: %s %q warn=%v, want %s %q warn=%v", c.cmd, d.Decision, marked(d), d.Warn, c.verdict, c.display, c.warn)
		}
		if !strings.Contains(d.Full, "hosts (24): web-01, web-02") || !strings.Contains(d.Full, "web-24") {
			t.Errorf("%q: ? does not list the hosts: %q", c.cmd, d.Full)
		}
		listed := strings.Contains(strings.Join(d.Reasons, "\n"), "on 24 hosts: web-01, web-02")
		if listed != c.warn {
			t.Errorf("%q: reasons %q (a warned command lists its hosts, no other)", c.cmd, d.Reasons)
		}
	}
	// Grants: "Always" for the command covers it on every host.
	e := newEngine(t, nil)
	d := e.Decide(Action{Kind: RunCommand, Command: "make test", Where: remoteCC, Hosts: fleetHosts(3), Selection: "web-0*"})
	if d.Decision != Ask || d.Rule == "" || d.Display != "run on 3 hosts (web-0*): make test" {
		t.Fatalf("%+v", d)
	}
	if err := e.Grant(d, ScopeSession); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(Action{Kind: RunCommand, Command: "make test", Where: remoteCC, Hosts: fleetHosts(30), Selection: "@all"}); d.Decision != Allow {
		t.Errorf("after the grant: %+v", d)
	}
	// One host, and a long list cut in the reason line.
	d = e.Decide(Action{Kind: RunCommand, Command: "rm -rf /tmp/x", Where: remoteCC, Hosts: fleetHosts(1), Selection: "web-01"})
	if !strings.HasPrefix(marked(d), "delete ⚠️ on 1 host (web-01): /tmp/x") {
		t.Errorf("display %q", marked(d))
	}
	d = e.Decide(Action{Kind: RunCommand, Command: "rm -rf /tmp/x", Where: remoteCC, Hosts: fleetHosts(50), Selection: "@all\x1b[2J"})
	if r := strings.Join(d.Reasons, "\n"); !strings.Contains(r, "web-20 and 30 more") || strings.Contains(r, "web-21") {
		t.Errorf("reasons %q", r)
	}
	if strings.Contains(d.Display, "\x1b") {
		t.Errorf("display carries an escape: %q", d.Display)
	}
}

// A command run on a fleet reads the hosts' disks, which nb cannot look
// at: its reads are judged as reads of unknown files (a file may lead
// anywhere there), never by this machine's facts; what reads no file is
// allowed as on one host.
func TestFleetReadsUnknownFiles(t *testing.T) {
	e := newEngine(t, nil)
	cc := CommandContext{Cwd: "/home/u", Home: "/home/u", Isolation: IsolationRemote, Facts: UnknownFacts{}}
	fleet := func(cmd string) *Decision {
		return e.Decide(Action{Kind: RunCommand, Command: cmd, Where: cc, Hosts: []string{"web-01", "web-02"}})
	}
	for _, cmd := range []string{"cat notes.txt", "tail -n 50 /var/log/app.log", "grep -r ERROR /var/log", "head /etc/hostname",
		"ls *.log", "git log -p", "go version", "find /srv -name '*.conf' | xargs cat"} {
		if d := fleet(cmd); d.Decision == Allow {
			t.Errorf("%q on a fleet: allowed by %s", cmd, d.DecidedBy)
		}
	}
	for _, cmd := range []string{"uptime", "uname -a", "df -h", "free -m", "hostname", "nproc", "cd /tmp && uname -s"} {
		if d := fleet(cmd); d.Decision != Allow {
			t.Errorf("%q on a fleet: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
}
