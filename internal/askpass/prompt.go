package askpass

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/visible"
)

// Prompt is nb's masked password prompt on the terminal of an IO: it reads
// keys in raw mode with nothing echoed, after throwing away what was typed
// before it appeared. It implements Asker; questions are asked one at a
// time.
type Prompt struct {
	io  *iostreams.IO
	pal style.Palette
	mu  sync.Mutex
}

// NewPrompt returns the prompt of io (stdin and stderr must be terminals;
// otherwise it answers ErrNoTerminal).
func NewPrompt(io *iostreams.IO) *Prompt {
	return &Prompt{io: io, pal: style.Palette{Color: io.Color}}
}

// AskPassword implements Asker.
func (p *Prompt) AskPassword(ctx context.Context, q Question) (Answer, error) {
	if !p.io.InTTY || !p.io.ErrTTY {
		return Answer{}, ErrNoTerminal
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t, err := openTerminal(p.io.InFd)
	if err != nil {
		return Answer{}, fmt.Errorf("password prompt: %w", err)
	}
	defer t.restore()
	w := crlf{p.io.Err}
	width := 80
	if p.io.Width != nil {
		width = max(p.io.Width()-1, 20)
	}
	lines := p.header(q, width)
	for _, l := range lines {
		fmt.Fprint(w, l+"\n")
	}
	e := &editor{perHostOffered: q.PerHost, pw: make([]byte, 0, MaxPassword)}
	draw := func() { fmt.Fprint(w, "\r\x1b[K"+p.inputLine(q, e, width)) }
	draw()
	ans, err := e.run(ctx, t, draw)
	// The prompt gives way to one line saying what happened.
	fmt.Fprintf(w, "\r\x1b[K\x1b[%dA\r\x1b[J", len(lines))
	fmt.Fprint(w, p.outcomeLine(q, ans, err, width)+"\n")
	return ans, err
}

// header is the prompt's first lines: what the password is for, and the
// keys.
func (p *Prompt) header(q Question, width int) []string {
	pal := p.pal
	cmd := oneLine(q.Command)
	head := pal.Accent("🔒") + " "
	switch {
	case q.Retry:
		head += pal.Warn("sudo did not accept the password; it asks again") + " to run: "
	case len(q.Hosts) > 1:
		head += fmt.Sprintf("sudo on %d hosts asks for a password to run: ", len(q.Hosts))
	case len(q.Hosts) == 1:
		head += "sudo on " + style.Sanitize(q.Hosts[0]) + " asks for a password to run: "
	default:
		head += "sudo asks for a password to run: "
	}
	lines := []string{style.Truncate(head+pal.Bold(cmd), width)}
	if len(q.Hosts) > 1 {
		lines = append(lines, "  "+pal.Muted(style.Truncate("hosts: "+style.Sanitize(strings.Join(q.Hosts, ", ")), width-2)))
	}
	keys := "Enter sends · Tab: remember for this session"
	if q.PerHost {
		keys += " · Ctrl+E: one password per host"
	}
	keys += " · Esc cancels"
	return append(lines, "  "+pal.Muted(style.Truncate(keys, width-2)))
}

// inputLine is the line the password is typed on (nothing of it shown).
func (p *Prompt) inputLine(q Question, e *editor, width int) string {
	label := "Password: "
	switch {
	case len(q.Hosts) > 0:
		label = "Password for " + style.Sanitize(strings.Join(q.Hosts, ", ")) + ": "
	case strings.TrimSpace(q.Prompt) != "":
		label = strings.TrimSpace(oneLine(q.Prompt)) + " "
	}
	var marks []string
	if e.remember {
		marks = append(marks, "remembered for this session")
	}
	if e.perHost {
		marks = append(marks, "one per host: Enter goes on")
	}
	if q.Previous {
		marks = append(marks, "Enter alone: the same as the last host")
	}
	s := label
	if len(marks) > 0 {
		s = p.pal.Muted("["+strings.Join(marks, " · ")+"]") + " " + label
	}
	return "  " + style.Truncate(s, width-2)
}

// outcomeLine is what stays on the screen once the prompt is answered.
func (p *Prompt) outcomeLine(q Question, a Answer, err error, width int) string {
	var s string
	switch {
	case err == nil && a.PerHost:
		s = "one password per host"
	case err == nil && a.Remember:
		s = "password given, remembered for this session"
	case err == nil:
		s = "password given"
	case errors.Is(err, ErrInterrupted):
		s = "password not given (interrupted)"
	default:
		s = "password not given"
	}
	return p.pal.Muted(style.Truncate("🔒 sudo: "+s+" · "+oneLine(q.Command), width))
}

// oneLine is a command as one line a person can judge: control
// characters escaped, long ones cut in the middle.
func oneLine(s string) string {
	return strings.ReplaceAll(visible.String(visible.Bound(s, 300, 100)), "\n", "⏎")
}

// keySource is where the editor's keys come from.
type keySource interface {
	// read fills b with what was typed, waiting while ctx lasts.
	read(ctx context.Context, b []byte) (int, error)
	// more reports whether another byte arrives within a short delay
	// (an escape sequence rather than the Esc key).
	more(ctx context.Context) bool
}

// editor reads a password key by key. The password's bytes never leave
// pw, whose capacity is fixed, so no copy of them is left behind when it
// grows.
type editor struct {
	pw                       []byte
	remember, perHost        bool
	perHostOffered           bool
	esc, csi                 bool // inside an escape sequence
	csiLen                   int
	cancel, interrupt, enter bool
}

// run reads keys until Enter, Esc, Ctrl+C or Ctrl+D on an empty line.
func (e *editor) run(ctx context.Context, src keySource, redraw func()) (Answer, error) {
	var buf [256]byte
	defer Wipe(buf[:])
	for {
		n, err := src.read(ctx, buf[:])
		if err != nil {
			Wipe(e.pw)
			if ctx.Err() != nil {
				return Answer{}, ErrCancelled
			}
			return Answer{}, fmt.Errorf("password prompt: %w", err)
		}
		changed := false
		for _, c := range buf[:n] {
			if e.key(c) {
				changed = true
			}
			if e.enter || e.cancel || e.interrupt {
				break
			}
		}
		Wipe(buf[:n])
		if e.esc && !e.csi && !src.more(ctx) {
			e.cancel = true // Esc alone
		}
		switch {
		case e.interrupt:
			Wipe(e.pw)
			return Answer{}, ErrInterrupted
		case e.cancel:
			Wipe(e.pw)
			return Answer{}, ErrCancelled
		case e.enter:
			if e.perHost {
				Wipe(e.pw)
				return Answer{PerHost: true, Remember: e.remember}, nil
			}
			return Answer{Password: e.pw, Remember: e.remember}, nil
		}
		if changed {
			redraw()
		}
	}
}

// key handles one byte; it reports whether the input line changed.
func (e *editor) key(c byte) bool {
	if e.esc {
		return e.escape(c)
	}
	switch c {
	case '\r', '\n':
		e.enter = true
	case 3: // Ctrl+C
		e.interrupt = true
	case 4: // Ctrl+D
		if len(e.pw) == 0 {
			e.cancel = true
		}
	case 0x1b:
		e.esc = true
	case '\t':
		e.remember = !e.remember
		return true
	case 5: // Ctrl+E
		if e.perHostOffered {
			e.perHost = !e.perHost
			return true
		}
	case 0x7f, 8: // Backspace
		if len(e.pw) > 0 {
			_, size := utf8.DecodeLastRune(e.pw)
			Wipe(e.pw[len(e.pw)-size:])
			e.pw = e.pw[:len(e.pw)-size]
		}
	case 0x15: // Ctrl+U
		Wipe(e.pw)
		e.pw = e.pw[:0]
	default:
		if c >= 0x20 && len(e.pw) < cap(e.pw) {
			e.pw = append(e.pw, c)
		}
	}
	return false
}

// escape follows an escape sequence: CSI (ESC [ … final byte) and SS3
// (ESC O x) are skipped, the bracketed-paste marks among them, so a pasted
// password is read as typed; ESC and any other byte is Alt+key, ignored.
func (e *editor) escape(c byte) bool {
	switch {
	case !e.csi && (c == '[' || c == 'O'):
		e.csi, e.csiLen = true, 0
	case e.csi:
		e.csiLen++
		if c >= 0x40 && c <= 0x7e || e.csiLen > 32 {
			e.esc, e.csi = false, false
		}
	default:
		e.esc = false
	}
	return false
}

// crlf writes \r\n for \n: the terminal is in raw mode.
type crlf struct{ w io.Writer }

func (c crlf) Write(b []byte) (int, error) {
	_, err := io.WriteString(c.w, strings.ReplaceAll(string(b), "\n", "\r\n"))
	return len(b), err
}
