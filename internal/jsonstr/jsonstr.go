// Package jsonstr writes strings as JSON strings byte for byte as
// encoding/json does, eight plain bytes at a time and without building
// anything: the hot path of a long history's request body and of its
// save.
package jsonstr

import "unicode/utf8"

// Writer is what a string is written to.
type Writer interface {
	WriteByte(c byte) error
	WriteString(s string) (int, error)
}

// Escaping is the escaping of an encoding/json encoder.
type Escaping int

const (
	// Plain is an encoder with SetEscapeHTML(false).
	Plain Escaping = iota
	// HTML is encoding/json's default: <, > and & escaped too.
	HTML
)

// hexDigits are the digits of \u00XX escapes.
const hexDigits = "0123456789abcdef"

// verbatim marks, per escaping, the ASCII bytes a JSON string holds as
// they are.
var verbatim = func() (t [2][utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[Plain][b] = b != '"' && b != '\\'
		t[HTML][b] = t[Plain][b] && b != '<' && b != '>' && b != '&'
	}
	return t
}()

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zero has the high bit of each zero byte of x set (and maybe of others
// when one is: only whether any is zero counts).
func zero(x uint64) uint64 { return (x - ones) &^ x }

// Verbatim reports whether the eight bytes of the little-endian word w
// are all written as they are: none is a control character, a quote, a
// backslash or above 0x7f (nor <, > or & with HTML escaping). A reader of
// JSON strings skips the same bytes.
func Verbatim(w uint64, e Escaping) bool {
	if e == HTML {
		return plainWord(w) && (zero(w^(ones*'<'))|zero(w^(ones*'>'))|zero(w^(ones*'&')))&highs == 0
	}
	return plainWord(w)
}

// plainWord is Verbatim without HTML escaping; small enough to inline in
// the loops below.
func plainWord(w uint64) bool {
	return ((w-ones*0x20)|zero(w^(ones*'"'))|zero(w^(ones*'\\'))|w)&highs == 0
}

// load is the eight bytes of s from i on, as a little-endian word.
func load(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// nextPlain and nextHTML return the index of the first byte from i on
// that is not written as it is (eight bytes at a time, then one at a
// time), or len(s).
func nextPlain(s string, i int) int {
	for i+8 <= len(s) && plainWord(load(s, i)) {
		i += 8
	}
	for i < len(s) && s[i] < utf8.RuneSelf && verbatim[Plain][s[i]] {
		i++
	}
	return i
}

func nextHTML(s string, i int) int {
	for i+8 <= len(s) && Verbatim(load(s, i), HTML) {
		i += 8
	}
	for i < len(s) && s[i] < utf8.RuneSelf && verbatim[HTML][s[i]] {
		i++
	}
	return i
}

// nextFor is the scanner of the escaping e.
func nextFor(e Escaping) func(s string, i int) int {
	if e == HTML {
		return nextHTML
	}
	return nextPlain
}

// Write writes s as encoding/json does: quotes, backslashes and control
// characters escaped (\b \f \n \r \t short, the others \u00XX), with HTML
// escaping <, > and & as \u003c, \u003e, \u0026, invalid UTF-8 as
// \ufffd, and U+2028 and U+2029 escaped.
func Write(w Writer, s string, e Escaping) {
	w.WriteByte('"')
	start := 0
	next := nextFor(e)
	for i := next(s, 0); i < len(s); i = next(s, i) {
		if b := s[i]; b < utf8.RuneSelf {
			w.WriteString(s[start:i])
			switch b {
			case '"', '\\':
				w.WriteByte('\\')
				w.WriteByte(b)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hexDigits[b>>4])
				w.WriteByte(hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hexDigits[r&0xF])
			start = i + size
		}
		i += size
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

// Len is the length of s written by Write, counted without writing it.
func Len(s string, e Escaping) int {
	n := 2 + len(s)
	next := nextFor(e)
	for i := next(s, 0); i < len(s); i = next(s, i) {
		if b := s[i]; b < utf8.RuneSelf {
			switch b {
			case '"', '\\', '\b', '\f', '\n', '\r', '\t':
				n++
			default:
				n += 5
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 5 // \ufffd for one byte
		case r == '\u2028' || r == '\u2029':
			n += 3 // \u202X for three bytes
		}
		i += size
	}
	return n
}
