package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/ptysession"
)

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

// TestSessionsTable: /sessions shows what a session started, what runs in
// it now and what it waits for, where and for how long; not the model's
// read position.
func TestSessionsTable(t *testing.T) {
	got := sessionsTable([]ptysession.Info{
		{ID: "term-1", Command: "npm run dev", Program: "node", Running: true, Dir: "/home/u/app", Uptime: 192 * time.Second, Position: 4096},
		{ID: "term-2", Command: "sudo apt upgrade", Program: "sudo", Running: true, SecretRead: true, Dir: "/tmp"},
		{ID: "term-3", Command: "python3", Program: "python3", Running: true, QuestionText: ">>>"},
		{ID: "term-4", Command: "make", Running: false, ExitCode: 2},
	}, "/home/u")
	for _, want := range []string{
		"ID      STARTED           NOW",
		"term-1  npm run dev       node",
		"~/app",
		"3m12s",
		"sudo, reads a password",
		`python3, asks ">>>"`,
		"exited 2",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Position") || strings.Contains(got, "4096") {
		t.Errorf("table shows the read position:\n%s", got)
	}
}
