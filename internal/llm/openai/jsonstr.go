package openai

import (
	"unicode/utf8"
)

// hex digits for \u00XX escapes.
const hexDigits = "0123456789abcdef"

// plainASCII marks the ASCII bytes a JSON string holds as they are.
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plain8 reports whether the eight bytes of the little-endian word w are
// plain ASCII: none is a control character, a quote, a backslash or
// above 0x7f.
func plain8(w uint64) bool {
	// Per byte: below 0x20; equal to '"' or '\\' (zero after the xor);
	// the high bit set.
	quote, slash := w^(ones*'"'), w^(ones*'\\')
	return ((w-ones*0x20)|(quote-ones)&^quote|(slash-ones)&^slash|w)&highs == 0
}

// word is the eight bytes of s from i on, as a little-endian word.
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// jsonStringLen is the length of s written by appendJSONString, counted
// without writing it.
func jsonStringLen(s string) int {
	n := 2 + len(s)
	for i := 0; i < len(s); {
		for i+8 <= len(s) && plain8(word(s, i)) {
			i += 8
		}
		for i < len(s) && s[i] < utf8.RuneSelf && plainASCII[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if !plainASCII[b] {
				switch b {
				case '"', '\\', '\b', '\f', '\n', '\r', '\t':
					n++
				default:
					n += 5
				}
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

// appendJSONString writes s as a JSON string exactly as encoding/json does
// with HTML escaping off: quotes, backslashes and control characters
// escaped (\b \f \n \r \t short, the others \u00XX), invalid UTF-8 as
// \ufffd, and U+2028 and U+2029 escaped. It is the hot path of a long
// history's request body.
func appendJSONString(buf jsonWriter, s string) {
	buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain ASCII bytes at a time, then one at a time up to
		// the next byte that is not.
		for i+8 <= len(s) && plain8(word(s, i)) {
			i += 8
		}
		for i < len(s) && s[i] < utf8.RuneSelf && plainASCII[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		if b := s[i]; b < utf8.RuneSelf {
			if plainASCII[b] {
				i++
				continue
			}
			buf.WriteString(s[start:i])
			switch b {
			case '"', '\\':
				buf.WriteByte('\\')
				buf.WriteByte(b)
			case '\b':
				buf.WriteString(`\b`)
			case '\f':
				buf.WriteString(`\f`)
			case '\n':
				buf.WriteString(`\n`)
			case '\r':
				buf.WriteString(`\r`)
			case '\t':
				buf.WriteString(`\t`)
			default:
				buf.WriteString(`\u00`)
				buf.WriteByte(hexDigits[b>>4])
				buf.WriteByte(hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf.WriteString(s[start:i])
			buf.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf.WriteString(s[start:i])
			buf.WriteString(`\u202`)
			buf.WriteByte(hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf.WriteString(s[start:])
	buf.WriteByte('"')
}
