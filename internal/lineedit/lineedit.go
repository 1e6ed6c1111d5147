// Package lineedit reads messages typed at a terminal: editing keys, a
// buffer of many lines, bracketed paste (a paste arrives whole and is sent
// only on Enter), history of multi-line entries and completion. It redraws
// only the rows it owns, and a message taller than the screen is shown
// through a window that follows the cursor, so nothing stale is left on
// screen.
package lineedit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/term"
)

// ErrInterrupt is returned by ReadLine when the user pressed Ctrl+C on a
// message: it is dropped.
var ErrInterrupt = errors.New("interrupted")

// ErrLeave is returned by ReadLine when the user pressed Ctrl+C twice in a
// row at an empty prompt (the first press shows how to leave).
var ErrLeave = errors.New("leave")

// leaveHint is the note the first Ctrl+C at an empty prompt shows.
const leaveHint = "press Ctrl+C again to leave (or Ctrl+D)"

// Editor reads messages from a terminal.
type Editor struct {
	in   io.Reader
	out  io.Writer
	fd   int // the input terminal, -1 when raw mode is not to be set
	size func() (width, height int)

	// Complete returns the candidates for a buffer (nil: none).
	Complete func(buf string) []string
	// CompleteWord completes the word at the cursor (a byte offset in
	// buf): it returns where the word starts and the texts that may
	// replace it up to the cursor, best first; ok false leaves Tab to
	// Complete.
	CompleteWord func(buf string, cursor int) (start int, cands []string, ok bool)
	// Continue reports whether Enter on this buffer adds a line instead of
	// sending it (for example a line ending in a backslash).
	Continue func(buf string) (next string, more bool)
	// Dim styles secondary text (continuation marks, notes).
	Dim func(string) string
	// External edits the message in another program (Ctrl+G, Ctrl+X
	// Ctrl+E) with the terminal in its normal mode, and returns the text
	// saved there (nil: the keys do nothing).
	External func(text string) (string, error)
	// Note returns a line shown, dimmed, under the message being edited
	// ("" for none): what sending it will do, such as the files its
	// mentions attach.
	Note func(buf string) string
	// BackTab is called on Shift+Tab (a mode switch) and returns the
	// prompt to draw from then on ("" keeps it; nil: the key does
	// nothing).
	BackTab func() string

	History History

	keys keyReader

	mu       sync.Mutex
	rawState *term.State

	// dmu guards the state of a ReadLine and the drawing: a resize
	// redraws from another goroutine.
	dmu    sync.Mutex
	active bool // a ReadLine is under way

	// The state of one ReadLine.
	prompt string
	buf    []rune
	cur    int
	curRow int // the terminal cursor's row within the drawn rows
	drawn  int // how many rows the last redraw drew
	// widths are the widths of the rows drawn, and curCol the cursor's
	// column: a terminal narrowed since reflows them onto more rows.
	widths []int
	curCol int
	ctrlX  bool // Ctrl+X was pressed: Ctrl+E opens the external editor
	top    int  // the first row shown when the message is taller than the screen
	hist   int  // the history entry shown (len(entries): the draft)
	draft  []rune
	// search is the incremental history search under way (Ctrl+R).
	search *search
	// leaving: the last key was Ctrl+C at an empty prompt; another
	// leaves.
	leaving bool
	// pasted: the last key was a paste. A message is sent only by a key
	// typed after it, never by the end of the input.
	pasted bool
	// noteRows is how many of the drawn rows are the note under the
	// message.
	noteRows int
}

// search is an incremental search back through the history.
type search struct {
	query []rune
	at    int    // the entry matched, -1 for none
	saved []rune // the buffer before the search
}

// New returns an editor reading keys from in (the terminal fd for raw mode,
// or -1) and drawing on out; size reports the terminal's size.
func New(in io.Reader, fd int, out io.Writer, size func() (int, int)) *Editor {
	e := &Editor{
		in: in, out: out, fd: fd, size: size,
		keys: keyReader{in: in, lineMode: fd < 0},
		Dim:  func(s string) string { return s },
	}
	if fd >= 0 {
		e.keys.wait = func(d time.Duration) bool { return readable(fd, d) }
	} else if r, ok := in.(interface{ Ready(time.Duration) bool }); ok {
		e.keys.wait = r.Ready
	}
	return e
}

// Feed gives keys read elsewhere (typed while nb was busy, with the
// terminal out of line mode) to the next ReadLine, before any key still
// to come.
func (e *Editor) Feed(keys []byte) {
	e.keys.buf = append(append([]byte(nil), keys...), e.keys.buf...)
}

// ReadLine shows prompt and returns the message the user sends with Enter.
// It returns io.EOF on Ctrl+D at an empty buffer (or when the input ends)
// and ErrInterrupt on Ctrl+C.
func (e *Editor) ReadLine(prompt string) (string, error) {
	if err := e.enterRaw(true); err != nil {
		return "", err
	}
	defer e.Restore()
	e.dmu.Lock()
	e.prompt, e.buf, e.cur, e.curRow, e.top = prompt, nil, 0, 0, 0
	e.hist, e.draft, e.search, e.ctrlX, e.leaving, e.pasted = len(e.History.entries), nil, nil, false, false, false
	e.active = true
	e.redraw()
	e.dmu.Unlock()
	for {
		k, err := e.keys.next()
		e.dmu.Lock()
		msg, done, rerr := e.handle(k, err)
		if done {
			// Over, in the same hold: a resize now draws nothing.
			e.active = false
		}
		e.dmu.Unlock()
		if done {
			return msg, rerr
		}
	}
}

// Resize redraws the message after the terminal changed size (SIGWINCH).
// It is safe to call from another goroutine, at any time.
func (e *Editor) Resize() {
	e.dmu.Lock()
	defer e.dmu.Unlock()
	if e.active {
		e.redraw()
	}
}

// handle applies one key (or the read error) and reports whether ReadLine
// is done, with its result. e.dmu is held.
func (e *Editor) handle(k key, err error) (string, bool, error) {
	if err != nil {
		if len(e.buf) > 0 && !e.pasted {
			return e.accept(string(e.buf)), true, nil
		}
		e.finish(false)
		if errors.Is(err, io.EOF) {
			return "", true, io.EOF
		}
		return "", true, fmt.Errorf("read input: %w", err)
	}
	leaving := e.leaving
	e.leaving, e.pasted = false, k.kind == keyPaste
	if e.search != nil && e.searchKey(k) {
		e.redraw()
		return "", false, nil
	}
	if e.ctrlX {
		e.ctrlX = false
		if k.kind == keyEnd && k.r == 0x05 { // Ctrl+X Ctrl+E
			e.editExternal()
			return "", false, nil
		}
	}
	switch k.kind {
	case keyEnter:
		msg := string(e.buf)
		if e.Continue != nil {
			if next, more := e.Continue(msg); more {
				e.buf = []rune(next)
				e.cur = len(e.buf)
				break
			}
		}
		return e.accept(msg), true, nil
	case keyInterrupt:
		if len(e.buf) > 0 {
			e.finish(false)
			return "", true, ErrInterrupt
		}
		if leaving {
			e.finish(false)
			return "", true, ErrLeave
		}
		e.leaving = true
	case keyTypedEOF:
		if len(e.buf) == 0 {
			e.finish(false)
			return "", true, io.EOF
		}
	case keyEOF:
		if len(e.buf) == 0 {
			e.finish(false)
			return "", true, io.EOF
		}
		e.deleteAt(e.cur)
	case keyCtrlX:
		e.ctrlX = true
		return "", false, nil
	case keyCancel:
		e.editExternal()
		return "", false, nil
	case keyBackTab:
		if e.BackTab != nil {
			if p := e.BackTab(); p != "" {
				e.prompt = p
			}
		}
	default:
		e.edit(k)
	}
	if k.kind != keyClear {
		e.redraw()
	}
	return "", false, nil
}

// editExternal hands the message to the External editor and takes back
// what was saved there; the message is drawn again where it was.
func (e *Editor) editExternal() {
	if e.External == nil {
		return
	}
	var b bytes.Buffer
	e.up(&b)
	b.WriteString("\r\x1b[J")
	e.write(b.String())
	e.curRow, e.drawn, e.widths, e.curCol = 0, 0, nil, 0
	e.Restore()
	text, err := e.External(string(e.buf))
	if rerr := e.enterRaw(false); rerr != nil && err == nil {
		err = rerr
	}
	if err != nil {
		e.write(e.Dim("editor: "+err.Error()) + "\r\n")
	} else {
		e.buf = []rune(strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n"))
		e.cur = len(e.buf)
		e.hist = len(e.History.entries)
	}
	e.redraw()
}

// edit applies one editing key to the buffer.
func (e *Editor) edit(k key) {
	switch k.kind {
	case keyRune:
		e.insert([]rune{k.r})
	case keyPaste:
		e.insert([]rune(k.text))
	case keyNewline:
		e.insert([]rune{'\n'})
	case keyBackspace:
		if e.cur > 0 {
			e.cur--
			e.deleteAt(e.cur)
		}
	case keyDelete:
		e.deleteAt(e.cur)
	case keyLeft:
		e.cur = max(e.cur-1, 0)
	case keyRight:
		e.cur = min(e.cur+1, len(e.buf))
	case keyHome:
		e.cur = e.lineStart(e.cur)
	case keyEnd:
		e.cur = e.lineEnd(e.cur)
	case keyWordLeft:
		e.cur = e.wordLeft()
	case keyWordRight:
		e.cur = e.wordRight()
	case keyKillEnd:
		end := e.lineEnd(e.cur)
		if end == e.cur && end < len(e.buf) {
			end++ // at a line's end: join the next line
		}
		e.buf = append(e.buf[:e.cur], e.buf[end:]...)
	case keyKillStart:
		start := e.lineStart(e.cur)
		e.buf = append(e.buf[:start], e.buf[e.cur:]...)
		e.cur = start
	case keyKillWord:
		start := e.wordLeft()
		e.buf = append(e.buf[:start], e.buf[e.cur:]...)
		e.cur = start
	case keyUp:
		if s := e.lineStart(e.cur); s > 0 {
			e.moveLine(-1)
		} else {
			e.recall(-1)
		}
	case keyDown:
		if end := e.lineEnd(e.cur); end < len(e.buf) {
			e.moveLine(+1)
		} else {
			e.recall(+1)
		}
	case keyHistPrev:
		e.recall(-1)
	case keyHistNext:
		e.recall(+1)
	case keyTab:
		e.complete()
	case keySearch:
		e.search = &search{at: -1, saved: append([]rune(nil), e.buf...)}
	case keyClear:
		e.write("\x1b[H\x1b[2J")
		e.curRow, e.curCol = 0, 0
		e.redraw()
	}
}

func (e *Editor) insert(rs []rune) {
	nb := make([]rune, 0, len(e.buf)+len(rs))
	nb = append(nb, e.buf[:e.cur]...)
	nb = append(nb, rs...)
	nb = append(nb, e.buf[e.cur:]...)
	e.buf = nb
	e.cur += len(rs)
}

func (e *Editor) deleteAt(i int) {
	if i < len(e.buf) {
		e.buf = append(e.buf[:i], e.buf[i+1:]...)
	}
}

func (e *Editor) lineStart(i int) int {
	for i > 0 && e.buf[i-1] != '\n' {
		i--
	}
	return i
}

func (e *Editor) lineEnd(i int) int {
	for i < len(e.buf) && e.buf[i] != '\n' {
		i++
	}
	return i
}

func (e *Editor) wordLeft() int {
	i := e.cur
	for i > 0 && unicode.IsSpace(e.buf[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(e.buf[i-1]) {
		i--
	}
	return i
}

func (e *Editor) wordRight() int {
	i := e.cur
	for i < len(e.buf) && unicode.IsSpace(e.buf[i]) {
		i++
	}
	for i < len(e.buf) && !unicode.IsSpace(e.buf[i]) {
		i++
	}
	return i
}

// moveLine moves the cursor to the same column of the previous or next
// line of the buffer.
func (e *Editor) moveLine(dir int) {
	start := e.lineStart(e.cur)
	col := e.cur - start
	var target int
	if dir < 0 {
		target = e.lineStart(start - 1)
	} else {
		target = e.lineEnd(e.cur) + 1
	}
	e.cur = min(target+col, e.lineEnd(target))
}

// recall shows an older (dir -1) or newer (+1) history entry. The cursor
// goes where pressing the same key again moves on through the history: the
// end of the first line going back, the end of the message going forward.
func (e *Editor) recall(dir int) {
	entries := e.History.entries
	next := e.hist + dir
	if next < 0 || next > len(entries) {
		return
	}
	if e.hist == len(entries) {
		e.draft = append([]rune(nil), e.buf...)
	}
	e.hist = next
	if next == len(entries) {
		e.buf = append([]rune(nil), e.draft...)
	} else {
		e.buf = []rune(entries[next])
	}
	if dir < 0 {
		e.cur = e.lineEnd(0)
	} else {
		e.cur = len(e.buf)
	}
}

// searchKey handles a key during a history search and reports whether
// it was consumed; other keys end the search, keeping the match, and are
// then handled as usual.
func (e *Editor) searchKey(k key) bool {
	s := e.search
	switch k.kind {
	case keyRune:
		s.query = append(s.query, k.r)
		e.find(len(e.History.entries) - 1)
	case keyPaste:
		first, _, _ := strings.Cut(k.text, "\n")
		s.query = append(s.query, []rune(first)...)
		e.find(len(e.History.entries) - 1)
	case keyBackspace:
		if len(s.query) > 0 {
			s.query = s.query[:len(s.query)-1]
		}
		e.find(len(e.History.entries) - 1)
	case keySearch:
		e.find(s.at - 1)
	case keyCancel, keyInterrupt:
		e.buf, e.cur, e.search = s.saved, len(s.saved), nil
	default:
		e.search = nil
		return false
	}
	return true
}

// find shows the newest entry at or before index from that holds the
// query; with none, the buffer stays.
func (e *Editor) find(from int) {
	s := e.search
	q := string(s.query)
	for i := min(from, len(e.History.entries)-1); i >= 0; i-- {
		if q != "" && strings.Contains(e.History.entries[i], q) {
			s.at = i
			e.buf = []rune(e.History.entries[i])
			e.cur = len(e.buf)
			return
		}
	}
	if q == "" {
		s.at = -1
		e.buf, e.cur = s.saved, len(s.saved)
	}
}

// promptNow is the prompt drawn: the search state during a search.
func (e *Editor) promptNow() string {
	if e.search == nil {
		return e.prompt
	}
	state := "search"
	if e.search.at < 0 && len(e.search.query) > 0 {
		state = "search, no match"
	}
	return e.Dim("("+state+") ") + string(e.search.query) + e.Dim(": ")
}

// complete completes the buffer from Complete's candidates: the one
// candidate, or their common prefix, or a list of them.
func (e *Editor) complete() {
	if e.CompleteWord != nil {
		text := string(e.buf)
		cursor := len(string(e.buf[:e.cur]))
		if start, cands, ok := e.CompleteWord(text, cursor); ok {
			e.completeWord(text, start, cursor, cands)
			return
		}
	}
	if e.Complete == nil || e.cur != len(e.buf) {
		return
	}
	cands := e.Complete(string(e.buf))
	if len(cands) == 0 {
		return
	}
	prefix := cands[0]
	for _, c := range cands[1:] {
		for !strings.HasPrefix(c, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if len(cands) == 1 {
		prefix += " "
	}
	if len(prefix) > len(string(e.buf)) {
		e.buf = []rune(prefix)
		e.cur = len(e.buf)
		return
	}
	// Nothing to add: list the candidates under the message.
	e.finish(false)
	e.write(strings.Join(cands, "  ") + "\r\n")
}

// completeWord replaces text[start:cursor] with the one candidate, or
// with what all candidates start with when that is longer; else it lists
// them under the message.
func (e *Editor) completeWord(text string, start, cursor int, cands []string) {
	if len(cands) == 0 {
		return
	}
	word := text[start:cursor]
	repl := cands[0]
	if len(cands) > 1 {
		repl = commonPrefix(cands)
		if len(repl) <= len(word) || !strings.HasPrefix(repl, word) {
			e.finish(false)
			e.write(e.Dim(strings.Join(cands, "  ")) + "\r\n")
			return
		}
	} else if cursor == len(text) {
		repl += " "
	}
	head := []rune(text[:start] + repl)
	e.buf = append(head, []rune(text[cursor:])...)
	e.cur = len(head)
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	// Not in the middle of a UTF-8 sequence.
	for len(p) > 0 && !utf8.ValidString(p) {
		p = p[:len(p)-1]
	}
	return p
}

// accept shows the whole message (not only the window of a tall one),
// moves below it and records it in the history.
func (e *Editor) accept(msg string) string {
	e.finish(true)
	e.History.Add(msg)
	return msg
}

// finish leaves the message on screen and moves the cursor below it:
// all of it when whole is set, else the rows last drawn.
func (e *Editor) finish(whole bool) {
	var b bytes.Buffer
	rows, _, _ := layout(e.promptNow(), e.buf, e.cur, e.width(), e.Dim)
	if whole {
		e.up(&b)
		b.WriteString("\r\x1b[J")
		for i, r := range rows {
			if i > 0 {
				b.WriteString("\r\n")
			}
			b.WriteString(r.text)
		}
	} else {
		// Below the message's last row, over the note: it goes.
		if d := e.drawn - 1 - e.noteRows - e.curRow; d > 0 {
			fmt.Fprintf(&b, "\x1b[%dB", d)
		}
	}
	b.WriteString("\r\n")
	if e.noteRows > 0 && !whole {
		b.WriteString("\x1b[J")
	}
	e.curRow, e.drawn, e.widths, e.curCol, e.noteRows = 0, 0, nil, 0, 0
	e.write(b.String())
}

// note is the dimmed line under the message: how to leave after a first
// Ctrl+C, else Note's.
func (e *Editor) note() string {
	switch {
	case e.leaving:
		return leaveHint
	case e.Note != nil && e.search == nil && len(e.buf) > 0:
		return e.Note(string(e.buf))
	}
	return ""
}

// redraw draws the message over the rows it took before.
func (e *Editor) redraw() {
	rows, curRow, curCol := layout(e.promptNow(), e.buf, e.cur, e.width(), e.Dim)
	e.noteRows = 0
	if n := e.note(); n != "" {
		// One row, cut to the width (control characters drawn as ^X).
		nr, _, _ := layout("", []rune(strings.ReplaceAll(n, "\n", " ")), 0, e.width(), func(s string) string { return s })
		rows = append(rows, row{text: e.Dim(nr[0].text), width: nr[0].width})
		e.noteRows = 1
	}
	vis, visCur, top := viewport(rows, curRow, e.height(), e.top, e.Dim)
	if top+len(vis) < len(rows) {
		e.noteRows = 0 // the window cut it
	}
	e.top = top
	var b bytes.Buffer
	b.WriteString("\x1b[?25l")
	e.up(&b)
	b.WriteString("\r")
	for i, r := range vis {
		if i > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString("\x1b[2K")
		b.WriteString(r.text)
	}
	b.WriteString("\x1b[J")
	if d := len(vis) - 1 - visCur; d > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", d)
	}
	b.WriteString("\r")
	if curCol > 0 {
		fmt.Fprintf(&b, "\x1b[%dC", curCol)
	}
	b.WriteString("\x1b[?25h")
	e.curRow, e.drawn, e.curCol = visCur, len(vis), curCol
	e.widths = e.widths[:0]
	for _, r := range vis {
		e.widths = append(e.widths, r.width)
	}
	e.write(b.String())
}

// up moves the terminal cursor to the first drawn row. The rows are
// counted at the terminal's width now: one drawn wider than that has been
// reflowed onto more rows by a terminal that was narrowed since.
func (e *Editor) up(b *bytes.Buffer) {
	if n := rowsAbove(e.widths, e.curRow, e.curCol, e.width()); n > 0 {
		fmt.Fprintf(b, "\x1b[%dA", n)
	}
}

// rowsAbove is how many screen rows the cursor is below the first drawn
// row, at column col of drawn row row, once rows of the given widths are
// shown at width columns.
func rowsAbove(widths []int, row, col, width int) int {
	if width <= 0 {
		return row
	}
	n := 0
	for i := 0; i < row; i++ {
		w := 0
		if i < len(widths) {
			w = widths[i]
		}
		n += max(1, (w+width-1)/width)
	}
	return n + col/width
}

func (e *Editor) width() int {
	w, _ := e.size()
	if w <= 0 {
		return 80
	}
	return w
}

// height is how many rows the message may take: one less than the
// screen, so the row above it stays visible.
func (e *Editor) height() int {
	_, h := e.size()
	if h <= 0 {
		h = 24
	}
	return h - 1
}

func (e *Editor) write(s string) { _, _ = io.WriteString(e.out, s) }

// beforeRaw, when set (by tests), runs just before the terminal is made
// raw.
var beforeRaw func()

// enterRaw puts the terminal in raw mode with bracketed paste on and asks
// it to report modified keys (Shift+Enter) as xterm's modifyOtherKeys
// does. Bytes already queued were typed in line mode (typeahead) when
// typeahead is set.
func (e *Editor) enterRaw(typeahead bool) error {
	if e.fd < 0 {
		return nil
	}
	if beforeRaw != nil {
		beforeRaw()
	}
	st, err := term.MakeRaw(e.fd)
	if err != nil {
		return fmt.Errorf("terminal raw mode: %w", err)
	}
	// Counted once the terminal is raw: every byte queued now was typed
	// before (in line mode, Enter turned into a line feed, and a line not
	// yet ended counts too, which line mode's count leaves out), and what
	// comes after arrives raw. Counted before, the keys typed in between
	// would read a line feed as Ctrl+J.
	if typeahead {
		e.keys.typeahead(queued(e.fd))
	}
	e.mu.Lock()
	e.rawState = st
	e.mu.Unlock()
	e.write("\x1b[?2004h\x1b[>4;1m")
	return nil
}

// Restore turns bracketed paste off and restores the terminal's mode. It is
// safe to call from another goroutine (a signal handler) and more than once.
func (e *Editor) Restore() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.rawState == nil {
		return
	}
	e.write("\x1b[>4;0m\x1b[?2004l")
	_ = term.Restore(e.fd, e.rawState)
	e.rawState = nil
}
