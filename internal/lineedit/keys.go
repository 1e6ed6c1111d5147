package lineedit

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// keyKind is what one key press (or one paste) does.
type keyKind int

const (
	keyNone keyKind = iota
	keyRune
	keyEnter
	keyNewline // Alt+Enter, Shift+Enter, Ctrl+J: a line break without sending
	keyBackspace
	keyDelete
	keyLeft
	keyRight
	keyUp
	keyDown
	keyHome
	keyEnd
	keyWordLeft
	keyWordRight
	keyHistPrev
	keyHistNext
	keyKillEnd   // Ctrl+K
	keyKillStart // Ctrl+U
	keyKillWord  // Ctrl+W
	keyInterrupt // Ctrl+C
	keyEOF       // Ctrl+D
	keyClear     // Ctrl+L
	keyTab
	keyPaste
	keySearch // Ctrl+R
	keyTypedEOF
	keyCancel  // Ctrl+G: ends a search; else opens the external editor
	keyCtrlX   // Ctrl+X: the prefix of Ctrl+X Ctrl+E
	keyBackTab // Shift+Tab
	keyEscape  // Esc alone, no sequence after it
)

// key is one decoded input event.
type key struct {
	kind keyKind
	r    rune   // keyRune; the byte of a control key
	text string // keyPaste
}

const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// escWait is how long an Esc waits for the rest of a key's escape
// sequence: a terminal writes a key's sequence at once, so an Esc with
// nothing after it for that long is the Esc key itself.
const escWait = 50 * time.Millisecond

// pasteQuiet is how long the input must stay quiet after a paste's end
// marker for the paste to end there. A terminal sends a paste as one
// burst, its end marker last: a marker followed at once by more input was
// inside the pasted text (bracketed paste markers can be copied too), so
// that input is pasted text as well, never keys.
const pasteQuiet = 100 * time.Millisecond

// keyReader decodes terminal input into keys. It reads only when it has
// nothing buffered, so nothing is read ahead of what the caller asks for
// beyond one read's worth of bytes.
type keyReader struct {
	in  io.Reader
	buf []byte
	err error
	// total counts the bytes ever read. The bytes from cookedStart to
	// cookedEnd were typed while the terminal was in line mode (typeahead
	// while nb was busy): there the terminal turned Enter into a line
	// feed, which is Enter, not Ctrl+J.
	total, cookedStart, cookedEnd int
	// lineMode: the input is no terminal in raw mode; a line feed is
	// Enter.
	lineMode bool
	// wait reports whether input arrives within a duration (nil: none
	// comes but what a read already returned).
	wait func(time.Duration) bool
}

// arrives waits up to d for more input and reads it; it reports whether
// any came.
func (k *keyReader) arrives(d time.Duration) bool {
	if k.err != nil || k.wait == nil || !k.wait(d) {
		return false
	}
	n := len(k.buf)
	k.fill()
	return len(k.buf) > n
}

// typeahead marks the next n bytes to read as typed in line mode.
func (k *keyReader) typeahead(n int) {
	k.cookedStart, k.cookedEnd = k.total, k.total+n
}

func (k *keyReader) fill() bool {
	if k.err != nil {
		return false
	}
	var tmp [4096]byte
	n, err := k.in.Read(tmp[:])
	k.buf = append(k.buf, tmp[:n]...)
	k.total += n
	if err != nil {
		k.err = err
	}
	return n > 0 || err == nil
}

// next returns the next key, or the read error once the input is exhausted.
func (k *keyReader) next() (key, error) {
	for len(k.buf) == 0 {
		if !k.fill() {
			return key{}, k.err
		}
	}
	at := k.total - len(k.buf)
	cooked := k.lineMode || at >= k.cookedStart && at < k.cookedEnd
	b := k.buf[0]
	switch {
	case b == 0x1b:
		return k.escape()
	case b == '\r' || b == '\n' && cooked:
		k.buf = k.buf[1:]
		// A terminal may send CR LF for one Enter.
		if b == '\r' && len(k.buf) > 0 && k.buf[0] == '\n' {
			k.buf = k.buf[1:]
		}
		return key{kind: keyEnter}, nil
	case b == '\n':
		k.buf = k.buf[1:]
		return key{kind: keyNewline}, nil // Ctrl+J
	case b < 0x20 || b == 0x7f:
		k.buf = k.buf[1:]
		return key{kind: controlKey(b), r: rune(b)}, nil
	}
	for !utf8.FullRune(k.buf) {
		if !k.fill() {
			break
		}
	}
	r, size := utf8.DecodeRune(k.buf)
	k.buf = k.buf[size:]
	return key{kind: keyRune, r: r}, nil
}

func controlKey(b byte) keyKind {
	switch b {
	case 0x00:
		// Ctrl+D typed while nb was busy (the terminal still in line
		// mode) is queued as end-of-file, which reads as NUL once the
		// editor turns line mode off.
		return keyTypedEOF
	case 0x01:
		return keyHome
	case 0x02:
		return keyLeft
	case 0x03:
		return keyInterrupt
	case 0x04:
		return keyEOF
	case 0x05:
		return keyEnd
	case 0x06:
		return keyRight
	case 0x08, 0x7f:
		return keyBackspace
	case 0x09:
		return keyTab
	case 0x0b:
		return keyKillEnd
	case 0x0c:
		return keyClear
	case 0x0e:
		return keyHistNext
	case 0x10:
		return keyHistPrev
	case 0x15:
		return keyKillStart
	case 0x17:
		return keyKillWord
	case 0x12:
		return keySearch
	case 0x07:
		return keyCancel
	case 0x18:
		return keyCtrlX
	}
	return keyNone
}

// escape decodes an escape sequence: a bracketed paste, a CSI or SS3 key,
// or Alt plus a key. Unknown sequences are consumed and ignored.
func (k *keyReader) escape() (key, error) {
	if len(k.buf) < 2 && !k.arrives(escWait) {
		k.buf = k.buf[1:]
		return key{kind: keyEscape}, nil
	}
	switch k.buf[1] {
	case '[':
		return k.csi()
	case 'O':
		if len(k.buf) < 3 {
			k.fill()
		}
		if len(k.buf) < 3 {
			k.buf = k.buf[2:]
			return key{kind: keyNone}, nil
		}
		c := k.buf[2]
		k.buf = k.buf[3:]
		return key{kind: finalKey(c, "")}, nil
	case '\r', '\n':
		k.buf = k.buf[2:]
		return key{kind: keyNewline}, nil
	case 'b', 'B':
		k.buf = k.buf[2:]
		return key{kind: keyWordLeft}, nil
	case 'f', 'F':
		k.buf = k.buf[2:]
		return key{kind: keyWordRight}, nil
	case 0x7f, 0x08:
		k.buf = k.buf[2:]
		return key{kind: keyKillWord}, nil
	}
	k.buf = k.buf[1:]
	return key{kind: keyNone}, nil
}

// csi decodes ESC [ params final.
func (k *keyReader) csi() (key, error) {
	i := 2
	for {
		for i < len(k.buf) && k.buf[i] >= 0x20 && k.buf[i] < 0x40 {
			i++
		}
		if i < len(k.buf) || !k.fill() {
			break
		}
	}
	if i >= len(k.buf) {
		k.buf = k.buf[:0]
		return key{kind: keyNone}, nil
	}
	params := string(k.buf[2:i])
	final := k.buf[i]
	k.buf = k.buf[i+1:]
	if final == '~' && params == "200" {
		return k.paste()
	}
	if k, ok := modifiedKey(final, params); ok {
		return k, nil
	}
	return key{kind: finalKey(final, params)}, nil
}

// modifiedKey decodes a key reported with its modifiers, as terminals do
// once asked for xterm's modifyOtherKeys (CSI 27;m;code ~) or by the kitty
// keyboard protocol (CSI code;m u). Enter with Shift, Alt or Ctrl adds a
// line; other keys are what they would be without the report.
func modifiedKey(final byte, params string) (key, bool) {
	var code, mod string
	switch final {
	case 'u':
		code, mod, _ = strings.Cut(params, ";")
	case '~':
		rest, ok := strings.CutPrefix(params, "27;")
		if !ok {
			return key{}, false
		}
		mod, code, _ = strings.Cut(rest, ";")
	default:
		return key{}, false
	}
	c, err := strconv.Atoi(code)
	if err != nil || c <= 0 || c > unicode.MaxRune {
		return key{kind: keyNone}, true
	}
	m := 0
	if mod != "" {
		if m, err = strconv.Atoi(strings.SplitN(mod, ":", 2)[0]); err != nil || m < 1 {
			return key{kind: keyNone}, true
		}
		m--
	}
	shift, alt, ctrl := m&1 != 0, m&2 != 0, m&4 != 0
	r := rune(c)
	switch {
	case r == '\r':
		if shift || alt || ctrl {
			return key{kind: keyNewline}, true
		}
		return key{kind: keyEnter}, true
	case ctrl && unicode.IsLetter(r) && r < 0x80:
		b := byte(unicode.ToLower(r)) & 0x1f
		return key{kind: controlKey(b), r: rune(b)}, true
	case alt && (r == 'b' || r == 'B'):
		return key{kind: keyWordLeft}, true
	case alt && (r == 'f' || r == 'F'):
		return key{kind: keyWordRight}, true
	case alt && (r == 0x7f || r == 0x08):
		return key{kind: keyKillWord}, true
	case r == 0x7f || r == 0x08:
		return key{kind: keyBackspace}, true
	case r == '\t' && shift:
		return key{kind: keyBackTab}, true
	case r == '\t':
		return key{kind: keyTab}, true
	case r == 0x1b || r >= 0xe000 && r <= 0xf8ff:
		// Escape, and the private-use codes of keys with no text.
		return key{kind: keyNone}, true
	case r >= 0x20 && !alt && !ctrl:
		return key{kind: keyRune, r: r}, true
	}
	return key{kind: keyNone}, true
}

func finalKey(final byte, params string) keyKind {
	mod := ""
	if j := bytes.IndexByte([]byte(params), ';'); j >= 0 {
		mod = params[j+1:]
		params = params[:j]
	}
	word := mod == "3" || mod == "5" // Alt or Ctrl
	switch final {
	case 'A':
		return keyUp
	case 'B':
		return keyDown
	case 'C':
		if word {
			return keyWordRight
		}
		return keyRight
	case 'D':
		if word {
			return keyWordLeft
		}
		return keyLeft
	case 'Z':
		return keyBackTab
	case 'H':
		return keyHome
	case 'F':
		return keyEnd
	case '~':
		switch params {
		case "1", "7":
			return keyHome
		case "4", "8":
			return keyEnd
		case "3":
			return keyDelete
		}
	}
	return keyNone
}

// paste reads a bracketed paste: up to an end marker after which the
// input stays quiet for pasteQuiet (see there). What arrives in the same
// burst after a marker, a carriage return or another marker included, is
// pasted text, so a paste can never type a key. Markers are left out of
// the text; line breaks become "\n" whatever the terminal sent.
func (k *keyReader) paste() (key, error) {
	var text []byte
	ended := false
	for {
		if i := bytes.Index(k.buf, []byte(pasteEnd)); i >= 0 {
			text = append(text, k.buf[:i]...)
			k.buf = k.buf[i+len(pasteEnd):]
			ended = true
			continue
		}
		// The text so far is the paste's, but for a marker a read may
		// have cut short.
		keep := partialSuffix(k.buf, pasteEnd)
		text = append(text, k.buf[:len(k.buf)-keep]...)
		k.buf = append(k.buf[:0], k.buf[len(k.buf)-keep:]...)
		if ended {
			if k.arrives(pasteQuiet) {
				continue
			}
			break
		}
		if !k.fill() {
			break // the input ended inside the paste: keep what arrived
		}
	}
	text = append(text, k.buf...)
	k.buf = k.buf[:0]
	return key{kind: keyPaste, text: normalizePaste(text)}, nil
}

// partialSuffix is the length of the longest end of b that begins marker
// (a marker a read cut short).
func partialSuffix(b []byte, marker string) int {
	for n := min(len(b), len(marker)-1); n > 0; n-- {
		if bytes.HasPrefix([]byte(marker), b[len(b)-n:]) {
			return n
		}
	}
	return 0
}

func normalizePaste(b []byte) string {
	b = bytes.ReplaceAll(b, []byte(pasteStart), nil)
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return string(bytes.ReplaceAll(b, []byte("\r"), []byte("\n")))
}
