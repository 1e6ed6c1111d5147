package cli

import "testing"

// TestShellLine: "!" runs a command here, "!@…" on the hosts a selection
// starting with @ picks.
func TestShellLine(t *testing.T) {
	for _, c := range []struct {
		line, command, hosts string
		ok                   bool
	}{
		{"!ls -la", "ls -la", "", true},
		{"  ! echo hi ", "echo hi", "", true},
		{"!@web uptime", "uptime", "@web", true},
		{"!@web,!web-03  df -h", "df -h", "@web,!web-03", true},
		{"!@web", "", "@web", true},
		{"!", "", "", true},
		{"hello !world", "", "", false},
		{"@file.txt please", "", "", false},
	} {
		command, hosts, ok := shellLine(c.line)
		if command != c.command || hosts != c.hosts || ok != c.ok {
			t.Errorf("%q: %q %q %v, want %q %q %v", c.line, command, hosts, ok, c.command, c.hosts, c.ok)
		}
	}
}
