package store

import (
	"encoding/binary"
	"github.com/nb-cli/nb/internal/jsonstr"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// scanner reads the JSON of a history file through a window of the file,
// for streamHistory: strings are unescaped in one pass over their bytes,
// eight plain bytes at a time. Whatever it does not take as plainly valid
// (a control character in a string, invalid UTF-8, a lone surrogate,
// anything but the expected punctuation) is errNotPlain; values it does
// not decode itself are handed whole, as raw JSON, to a validating
// decoder.
type scanner struct {
	r io.Reader
	// buf[pos:] is what has been read and not yet scanned.
	buf []byte
	pos int
	eof bool
	err error
	// out is the scratch space for strings with escapes or across reads.
	out []byte
}

// window is the size of the scanner's window on the file.
const window = 256 << 10

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, 0, window)}
}

// fill reads more, keeping the unscanned bytes; it reports whether any
// byte was added.
func (s *scanner) fill() bool {
	if s.eof {
		return false
	}
	n := copy(s.buf[:cap(s.buf)], s.buf[s.pos:])
	s.buf, s.pos = s.buf[:n], 0
	if n == cap(s.buf) {
		s.buf = append(s.buf, make([]byte, cap(s.buf))...)[:n]
	}
	for {
		m, err := s.r.Read(s.buf[n:cap(s.buf)])
		s.buf = s.buf[:n+m]
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
			return m > 0
		}
		if m > 0 {
			return true
		}
	}
}

// peek skips white space and returns the next byte (0 at the end).
func (s *scanner) peek() byte {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c
			}
		}
		if !s.fill() {
			return 0
		}
	}
}

// expect consumes c, the next byte after white space.
func (s *scanner) expect(c byte) error {
	if s.peek() != c {
		return errNotPlain
	}
	s.pos++
	return nil
}

// literal consumes the literal word (true, false, null) next.
func (s *scanner) literal(word string) error {
	for len(s.buf)-s.pos < len(word) {
		if !s.fill() {
			return errNotPlain
		}
	}
	if string(s.buf[s.pos:s.pos+len(word)]) != word {
		return errNotPlain
	}
	s.pos += len(word)
	return nil
}

// more consumes the separator after a member or element: it reports
// whether another follows (a comma) or the container ends (end).
func (s *scanner) more(end byte) (bool, error) {
	switch s.peek() {
	case ',':
		s.pos++
		return true, nil
	case end:
		s.pos++
		return false, nil
	}
	return false, errNotPlain
}

// integer reads a number that is a plain integer of at most 18 digits;
// any other number is errNotPlain.
func (s *scanner) integer() (int, error) {
	s.peek()
	for len(s.buf)-s.pos < 21 && s.fill() {
	}
	b := s.buf[s.pos:]
	neg := len(b) > 0 && b[0] == '-'
	i := 0
	if neg {
		i++
	}
	n, digits := 0, 0
	for ; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		n = n*10 + int(b[i]-'0')
		digits++
	}
	if digits == 0 || digits > 18 || digits > 1 && b[i-digits] == '0' {
		return 0, errNotPlain
	}
	if i < len(b) {
		switch b[i] {
		case '.', 'e', 'E':
			return 0, errNotPlain
		}
	}
	s.pos += i
	if neg {
		n = -n
	}
	return n, nil
}

// plain8 reports whether the eight bytes of s from i on are plain ASCII
// in a JSON string: none is a control character, a quote, a backslash or
// above 0x7f.
func plain8(s []byte, i int) bool {
	return jsonstr.Verbatim(binary.LittleEndian.Uint64(s[i:]), jsonstr.Plain)
}

// plainByte marks the ASCII bytes a JSON string holds as they are;
// shortEscape maps the letter of each two-byte escape to its byte.
var plainByte, shortEscape = func() (plain, short [256]byte) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		if b != '"' && b != '\\' {
			plain[b] = 1
		}
	}
	for k, v := range map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'} {
		short[k] = v
	}
	return
}()

// str reads the string next (its opening quote already peeked) and
// returns it unescaped; the bytes are valid until the scanner's next call.
func (s *scanner) str() ([]byte, error) {
	s.pos++
	out := s.out[:0]
	// direct: the string so far is buf[start:pos], with nothing in out.
	direct := true
	start := s.pos
	// refill keeps what was scanned in out and reads more; it needs at
	// least n unscanned bytes.
	refill := func(n int) bool {
		out = append(out, s.buf[start:s.pos]...)
		direct = false
		for len(s.buf)-s.pos < n {
			if !s.fill() {
				start = s.pos
				return false
			}
		}
		start = s.pos
		return true
	}
	for {
		for s.pos+8 <= len(s.buf) && plain8(s.buf, s.pos) {
			s.pos += 8
		}
		for s.pos < len(s.buf) && plainByte[s.buf[s.pos]] != 0 {
			s.pos++
		}
		if s.pos == len(s.buf) {
			if !refill(1) {
				return nil, errNotPlain
			}
			continue
		}
		c := s.buf[s.pos]
		switch {
		case c == '"':
			var v []byte
			if direct {
				v = s.buf[start:s.pos]
			} else {
				out = append(out, s.buf[start:s.pos]...)
				v = out
				s.out = out
			}
			s.pos++
			return v, nil
		case c == '\\':
			if s.pos+1 < len(s.buf) && shortEscape[s.buf[s.pos+1]] != 0 {
				out = append(append(out, s.buf[start:s.pos]...), shortEscape[s.buf[s.pos+1]])
				direct = false
				s.pos += 2
				start = s.pos
				continue
			}
			if len(s.buf)-s.pos < 12 {
				// Room for the longest escape, a surrogate pair (or
				// the end of the file).
				refill(12)
			} else {
				out = append(out, s.buf[start:s.pos]...)
				direct = false
			}
			n, err := s.escape(&out)
			if err != nil {
				return nil, err
			}
			s.pos += n
			start = s.pos
		case c < 0x20:
			return nil, errNotPlain
		default:
			if len(s.buf)-s.pos < utf8.UTFMax && !s.eof {
				refill(utf8.UTFMax)
			}
			r, size := utf8.DecodeRune(s.buf[s.pos:])
			if r == utf8.RuneError && size == 1 {
				return nil, errNotPlain
			}
			s.pos += size
		}
	}
}

// escape appends the escape sequence at pos, unescaped, to out, and
// returns its length.
func (s *scanner) escape(out *[]byte) (int, error) {
	b := s.buf[s.pos:]
	if len(b) < 2 {
		return 0, errNotPlain
	}
	switch b[1] {
	case '"', '\\', '/':
		*out = append(*out, b[1])
	case 'b':
		*out = append(*out, '\b')
	case 'f':
		*out = append(*out, '\f')
	case 'n':
		*out = append(*out, '\n')
	case 'r':
		*out = append(*out, '\r')
	case 't':
		*out = append(*out, '\t')
	case 'u':
		r, ok := hex4(b[2:])
		if !ok {
			return 0, errNotPlain
		}
		if !utf16.IsSurrogate(r) {
			*out = utf8.AppendRune(*out, r)
			return 6, nil
		}
		// Only a valid pair: the rest is left to the full decoder.
		if len(b) < 12 || b[6] != '\\' || b[7] != 'u' {
			return 0, errNotPlain
		}
		r2, ok := hex4(b[8:])
		if !ok {
			return 0, errNotPlain
		}
		if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
			return 0, errNotPlain
		}
		*out = utf8.AppendRune(*out, r)
		return 12, nil
	default:
		return 0, errNotPlain
	}
	return 2, nil
}

// hex4 decodes the four hex digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// raw reads the value next and returns a copy of its JSON text as
// written, checked as the validating decoder checks a whole file (UTF-8,
// escapes, duplicate names).
func (s *scanner) raw() ([]byte, error) {
	if s.peek() == 0 {
		return nil, errNotPlain
	}
	var v []byte
	depth := 0
	inString, escaped := false, false
scan:
	for {
		if s.pos == len(s.buf) && !s.fill() {
			break
		}
		c := s.buf[s.pos]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			v = append(v, c)
			s.pos++
			if !inString && depth == 0 {
				break
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				break scan
			}
			depth--
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				break scan
			}
		}
		v = append(v, c)
		s.pos++
		if depth == 0 && (c == '}' || c == ']') {
			break
		}
	}
	if s.err != nil || !jsontext.Value(v).IsValid() {
		return nil, errNotPlain
	}
	return v, nil
}
