package askpass

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// scripted answers the questions from a list and records them.
type scripted struct {
	mu      sync.Mutex
	answers []Answer
	asked   []Question
	given   [][]byte
}

func (s *scripted) AskPassword(_ context.Context, q Question) (Answer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, q)
	if len(s.answers) == 0 {
		return Answer{}, ErrCancelled
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	s.given = append(s.given, a.Password)
	return a, nil
}

func (s *scripted) questions() []Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Question(nil), s.asked...)
}

func pw(s string) []byte { return []byte(s) }

// chunks is a key source delivering fixed reads.
type chunks struct {
	reads []string
	// pending says another byte follows at once (an escape sequence).
	pending bool
}

func (c *chunks) read(_ context.Context, b []byte) (int, error) {
	if len(c.reads) == 0 {
		return 0, errors.New("no more keys")
	}
	n := copy(b, c.reads[0])
	if c.reads[0] = c.reads[0][n:]; c.reads[0] == "" {
		c.reads = c.reads[1:]
	}
	return n, nil
}

func (c *chunks) more(context.Context) bool { return len(c.reads) > 0 && c.pending }

func TestEditorKeys(t *testing.T) {
	cases := []struct {
		name    string
		reads   []string
		offered bool
		want    string
		err     error
		remem   bool
		perHost bool
	}{
		{name: "typed", reads: []string{"abc", "\r"}, want: "abc"},
		{name: "one read", reads: []string{"abc\r"}, want: "abc"},
		{name: "backspace", reads: []string{"ab\x7fc\r"}, want: "ac"},
		{name: "backspace a whole rune", reads: []string{"aé\x7f\x7f\x7fb\r"}, want: "b"},
		{name: "ctrl-u", reads: []string{"xyz\x15pw\r"}, want: "pw"},
		{name: "tab remembers", reads: []string{"pw", "\t", "\r"}, want: "pw", remem: true},
		{name: "tab twice forgets", reads: []string{"\tpw\t\r"}, want: "pw"},
		{name: "spaces and symbols", reads: []string{"a b!$'\"\\\r"}, want: "a b!$'\"\\"},
		{name: "bracketed paste", reads: []string{"\x1b[200~pasted pw\x1b[201~", "\r"}, want: "pasted pw"},
		{name: "arrow keys ignored", reads: []string{"p\x1b[Dw\x1bOA\r"}, want: "pw"},
		{name: "esc cancels", reads: []string{"pw", "\x1b"}, err: ErrCancelled},
		{name: "ctrl-c interrupts", reads: []string{"pw\x03"}, err: ErrInterrupted},
		{name: "ctrl-d on empty cancels", reads: []string{"\x04"}, err: ErrCancelled},
		{name: "ctrl-d in text ignored", reads: []string{"p\x04w\r"}, want: "pw"},
		{name: "ctrl-e not offered", reads: []string{"p\x05w\r"}, want: "pw"},
		{name: "ctrl-e per host", reads: []string{"\x05\r"}, offered: true, perHost: true},
		{name: "other controls ignored", reads: []string{"p\x01\x07w\r"}, want: "pw"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &editor{perHostOffered: c.offered, pw: make([]byte, 0, MaxPassword)}
			src := &chunks{reads: c.reads}
			a, err := e.run(context.Background(), src, func() {})
			if !errors.Is(err, c.err) {
				t.Fatalf("err %v, want %v", err, c.err)
			}
			if string(a.Password) != c.want || a.Remember != c.remem || a.PerHost != c.perHost {
				t.Fatalf("got %q remember=%v perHost=%v", a.Password, a.Remember, a.PerHost)
			}
			if err != nil && len(e.pw) > 0 && !bytes.Equal(e.pw, make([]byte, len(e.pw))) {
				t.Fatalf("the password typed before %v was not wiped", err)
			}
		})
	}
}

func TestEditorBoundsThePassword(t *testing.T) {
	e := &editor{pw: make([]byte, 0, MaxPassword)}
	long := strings.Repeat("x", MaxPassword+50)
	a, err := e.run(context.Background(), &chunks{reads: []string{long[:200], long[200:], "\r"}}, func() {})
	if err != nil || len(a.Password) != MaxPassword {
		t.Fatalf("len %d, %v", len(a.Password), err)
	}
}

func TestEditorCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := &editor{pw: make([]byte, 0, 8)}
	src := &ctxSource{}
	if _, err := e.run(ctx, src, func() {}); !errors.Is(err, ErrCancelled) {
		t.Fatalf("err %v", err)
	}
}

type ctxSource struct{}

func (ctxSource) read(ctx context.Context, _ []byte) (int, error) { <-ctx.Done(); return 0, ctx.Err() }
func (ctxSource) more(context.Context) bool                       { return false }

func TestMemoryKeepsCopiesAndWipes(t *testing.T) {
	var m memory
	given := []byte("secret")
	m.put("", given)
	given[0] = 'X' // the caller wipes its own copy
	got := m.get("")
	if string(got) != "secret" {
		t.Fatalf("get: %q", got)
	}
	got[0] = 'Y'
	if string(m.get("")) != "secret" {
		t.Fatal("get returned the kept slice itself")
	}
	kept := m.pw[""]
	m.put("host a", []byte("other"))
	m.forget("")
	if m.has("") || !bytes.Equal(kept, make([]byte, len(kept))) {
		t.Fatalf("forget left %q", kept)
	}
	a := m.pw["host a"]
	m.clear()
	if m.has("host a") || !bytes.Equal(a, make([]byte, len(a))) {
		t.Fatalf("clear left %q", a)
	}
	if m.get("host a") != nil {
		t.Fatal("a forgotten password is still given")
	}
}

func TestRunsSudo(t *testing.T) {
	for cmd, want := range map[string]bool{
		"sudo systemctl restart nginx":      true,
		"ls /etc && sudo cat /etc/shadow":   true,
		"echo 1 | /usr/bin/sudo tee /x":     true,
		"find . -exec sudo rm {} +":         true,
		"bash -c 'sudo true'":               true,
		"$PRIV true":                        true,
		"grep sudo /var/log/auth.log":       false,
		"echo 'sudo make me a sandwich'":    false,
		"systemctl status nginx | head -20": false,
		"if true; then":                     true, // not understood
	} {
		if got := RunsSudo(cmd); got != want {
			t.Errorf("RunsSudo(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func TestOutcomeNote(t *testing.T) {
	if n := (Outcome{Asked: 2}).Note(); n != "" {
		t.Errorf("a run answered has no note: %q", n)
	}
	n := Outcome{NoTerminal: true, Refused: []string{"the helper was not started by sudo"}}.Note()
	for _, w := range []string{"sudo -v", "NOPASSWD", "run nb in a terminal", "not started by sudo"} {
		if !strings.Contains(n, w) {
			t.Errorf("note %q lacks %q", n, w)
		}
	}
	if n := (Outcome{Cancelled: true}).Note(); !strings.Contains(n, "cancelled") {
		t.Errorf("note %q", n)
	}
}

func TestShimScripts(t *testing.T) {
	s := shimScripts("/opt/it's nb/nb", "@nb-sudo-1", programs{sudo: "/usr/bin/sudo", sudoedit: "/usr/bin/sudoedit", su: "/bin/su"})
	if s["sudo"] != "#!/bin/sh\nexec '/usr/bin/sudo' -A \"$@\"\n" {
		t.Errorf("sudo shim: %q", s["sudo"])
	}
	if s[askpassShim] != "#!/bin/sh\nexec '/opt/it'\\''s nb/nb' "+HelperArg+" '@nb-sudo-1' \"$@\"\n" {
		t.Errorf("askpass shim: %q", s[askpassShim])
	}
	if s["sudoedit"] != "#!/bin/sh\nexec '/usr/bin/sudoedit' -A \"$@\"\n" {
		t.Errorf("sudoedit shim: %q", s["sudoedit"])
	}
	if _, ok := s["doas"]; ok {
		t.Error("a doas shim without doas")
	}
	if !strings.Contains(s["su"], "exec '/bin/su' \"$@\"") {
		t.Errorf("su shim: %q", s["su"])
	}
}

func TestBridgeRefusesStrangers(t *testing.T) {
	if !supported {
		t.Skip("the bridge needs Linux")
	}
	a := &scripted{answers: []Answer{{Password: pw("secret")}}}
	s := New(Options{Asker: a, Environ: []string{"PATH=" + t.TempDir()}})
	defer s.Close()
	// no sudo on that PATH: nothing to bridge
	if r, err := s.Prepare(context.Background(), "true"); r != nil || err != nil {
		t.Fatalf("Prepare without sudo: %v, %v", r, err)
	}
	ln, err := listen()
	if err != nil {
		t.Fatal(err)
	}
	s.conns.Add(1)
	go s.serve(ln)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &run{command: "sudo true", ctx: ctx, cancel: cancel}
	s.mu.Lock()
	s.runs["tok"] = r
	s.mu.Unlock()
	addr := ln.Addr().String()
	var out bytes.Buffer
	// this test binary is nb's executable here, but its parent is not sudo
	err = helper(addr, "tok", "Password:", nil, &out)
	if err == nil || !strings.Contains(err.Error(), "not started by sudo") || out.Len() > 0 {
		t.Fatalf("a helper outside sudo: %v, %q", err, out.String())
	}
	err = helper(addr, "unknown", "Password:", nil, &out)
	if err == nil || !strings.Contains(err.Error(), "no command of this nb") {
		t.Fatalf("an unknown run: %v", err)
	}
	if err := helper(addr, "", "Password:", nil, &out); err == nil {
		t.Fatal("a helper with no bridge answered")
	}
	c, err := net.DialTimeout("unix", addr, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte("not json\n"))
	b := make([]byte, 64)
	n, _ := c.Read(b)
	c.Close()
	if !strings.HasPrefix(string(b[:n]), "Nbad request") {
		t.Fatalf("bad request answered %q", b[:n])
	}
	if len(a.questions()) != 0 {
		t.Fatal("the user was asked")
	}
	if len(r.out.Refused) != 1 {
		t.Fatalf("refusals recorded: %+v", r.out)
	}
	ln.Close()
}
