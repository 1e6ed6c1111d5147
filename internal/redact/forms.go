package redact

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
)

// A known secret (a secret variable's value, a token of a secret file)
// is found in any of the spellings a command can give it in one cheap
// step: as it is, reversed (rev), in ROT13, in base64 or base32 (either
// alphabet, any alignment, with or without padding, wrapped or not), in
// hexadecimal (either case, with any separators, as xxd, od and hexdump
// print it, 16-bit words swapped as od -x prints them, \x41, 0x41, %41),
// in octal bytes (od -b), and with its punctuation percent-encoded or
// quoted-printable. Each spelling is reduced, like the text searched, to
// its skeleton: its letters and digits in lower case. So a change of
// case, and separators, escapes or line breaks put between the
// characters, change nothing. Two steps (base64 of the reversed value)
// and anything keyed (encryption, an arbitrary substitution) are beyond
// this: the sandbox and the policy stand there.

// formKind is a family of spellings; its minimum run is how many
// characters of a spelling the text must hold in a row to be taken for
// the secret: about 50 bits of it.
type formKind uint8

const (
	formPlain formKind = iota // as it is, reversed, ROT13
	formBase64
	formBase32
	formHex   // hex, 16-bit words swapped, punctuation encoded
	formOctal // od -b
)

func (k formKind) minRun() int {
	switch k {
	case formBase32:
		return 11
	case formHex:
		return 12
	case formOctal:
		return 18
	}
	return 10
}

// form is one spelling of a known secret, as its skeleton.
type form struct {
	text  string
	kind  formKind
	value int32 // index of the value it spells
	// whole is set when only the whole spelling is the secret: a value
	// with parts anyone may print (a URL's host and port).
	whole bool
}

// need is how many characters of the form a run must hold: its minimum
// run, or the whole of a shorter form or of one only whole.
func (f *form) need() int {
	if f.whole {
		return len(f.text)
	}
	return min(len(f.text), f.kind.minRun())
}

// formsOf returns the spellings of v that are long enough to search for.
func formsOf(v string, value int32) []form {
	b := []byte(v)
	var out []form
	add := func(kind formKind, s string) {
		sk := skeletonString(s)
		if len(sk) < anchorLen || slices.ContainsFunc(out, func(f form) bool { return f.text == sk }) {
			return
		}
		out = append(out, form{text: sk, kind: kind, value: value})
	}
	add(formPlain, v)
	add(formPlain, string(reversed(b)))
	add(formPlain, rot13(v))
	for _, c := range cores(b, 6, base64.StdEncoding.EncodeToString) {
		add(formBase64, c)
	}
	for _, enc := range []*base32.Encoding{base32.StdEncoding, base32.HexEncoding} {
		for _, c := range cores(b, 5, enc.EncodeToString) {
			add(formBase32, c)
		}
	}
	add(formHex, hex.EncodeToString(b))
	add(formHex, hex.EncodeToString(swapped(b)))
	if len(b) > 1 {
		add(formHex, hex.EncodeToString(swapped(b[1:])))
	}
	add(formHex, punctHex(b))
	var oct []byte
	for _, c := range b {
		oct = fmt.Appendf(oct, "%03o", c)
	}
	add(formOctal, string(oct))
	return out
}

// cores returns, for every alignment of v in a stream encoded by enc in
// characters of bits bits, the characters that only v's bits make up
// (those at either end also hold bits of the bytes around it).
func cores(v []byte, bits int, enc func([]byte) string) []string {
	var out []string
	for k := 0; k*8%bits != 0 || k == 0; k++ {
		buf := make([]byte, k+len(v)+bits)
		copy(buf[k:], v)
		s := enc(buf)
		first := (8*k + bits - 1) / bits
		last := 8 * (k + len(v)) / bits
		if first < last {
			out = append(out, s[first:last])
		}
	}
	return out
}

func reversed(b []byte) []byte {
	r := slices.Clone(b)
	slices.Reverse(r)
	return r
}

func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

// swapped is b with the bytes of every pair swapped (a trailing odd byte
// dropped): the 16-bit little-endian words od -x and hexdump print.
func swapped(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i+1 < len(b); i += 2 {
		out = append(out, b[i+1], b[i])
	}
	return out
}

// punctHex is b with every byte other than a letter or digit in
// hexadecimal: percent-encoding and quoted-printable of its punctuation.
func punctHex(b []byte) string {
	var out []byte
	for _, c := range b {
		if alnumByte(c) {
			out = append(out, c)
		} else {
			out = hex.AppendEncode(out, []byte{c})
		}
	}
	return string(out)
}

func alnumByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func hexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// skeleton is a text reduced to its letters and digits in lower case,
// the prefixes of escaped bytes (\x41, \u0041, 0x41) dropped. Where in
// the text a byte of it came from is found again by reading the text
// from the last checkpoint before it (one every checkpointEvery bytes).
type skeleton struct {
	text  string
	b     []byte
	marks []checkpoint
}

// checkpoint says that reading the text from offset text (to end, in
// the range added from start) adds the skeleton's bytes from sk on; zero
// is set when the byte before text was kept as the 0 of a 0x prefix.
type checkpoint struct {
	sk, text, start, end int32
	zero                 bool
}

const checkpointEvery = 2048

// at is the offset in the text of the skeleton's byte k.
func (s *skeleton) at(k int) int {
	i, found := slices.BinarySearchFunc(s.marks, int32(k), func(c checkpoint, k int32) int { return int(c.sk - k) })
	if !found {
		i--
	}
	// a checkpoint that adds nothing shares its sk with the next one
	for i+1 < len(s.marks) && s.marks[i+1].sk <= int32(k) {
		i++
	}
	// the byte before a checkpoint may be a 0 taken back at it
	for i > 0 && s.marks[i].zero {
		i--
	}
	c := s.marks[i]
	n, zero := int(c.sk), c.zero
	for j := int(c.text); j < int(c.end); j++ {
		b, skip, drop := skelTable[s.text[j]], 0, 0
		if b == escapeByte {
			b, skip, drop = skelByte(s.text, j, int(c.end), zero)
		}
		n -= drop
		j += skip
		zero = b == '0' && prefixZero(s.text, j, int(c.start))
		if b == 0 {
			continue
		}
		if n == k && !(zero && dropsZero(s.text, j+1, int(c.end))) {
			return j
		}
		n++
	}
	return int(c.end) - 1
}

// skelTable maps a byte to what the skeleton keeps of it: a letter in
// lower case, a digit, 0 for nothing, or escapeByte for a byte that may
// be part of an escape's prefix (\ of \x41, x of 0x41).
var skelTable = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		switch {
		case c == '\\' || c == 'x' || c == 'X' || c == 0x1b:
			t[c] = escapeByte
		case c >= 'A' && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		case alnumByte(byte(c)):
			t[c] = byte(c)
		}
	}
	return t
}()

const escapeByte = 1

// add appends the skeleton of text[start:end] to s; text is the same
// text at every call.
func (s *skeleton) add(text string, start, end int) {
	s.text = text
	n := len(s.b)
	if s.b == nil {
		s.b = getBuffer(end - start)
	}
	b := slices.Grow(s.b, end-start)[:n+end-start]
	zero := false
	for from := start; from < end; {
		to := min(end, from+checkpointEvery)
		s.marks = append(s.marks, checkpoint{sk: int32(n), text: int32(from), start: int32(start), end: int32(end), zero: zero})
		i := from
		for ; i < to; i++ {
			c := skelTable[text[i]]
			if c == escapeByte {
				var skip, drop int
				c, skip, drop = skelByte(text, i, end, zero)
				i += skip
				n -= drop
			}
			zero = c == '0' && prefixZero(text, i, start)
			b[n] = c
			n += int((uint(c) + 0xff) >> 8) // 1 unless c is 0
		}
		from = i
	}
	s.b = b[:n]
}

// prefixZero reports whether a 0 kept from text[i] may begin a 0x
// prefix: it begins a word.
func prefixZero(text string, i, start int) bool {
	return text[i] == '0' && (i == start || !alnumByte(text[i-1]))
}

// dropsZero reports whether text[i], after a 0 that may begin a prefix,
// makes it one (0x41): the x and a hex digit.
func dropsZero(text string, i, end int) bool {
	return i+1 < end && (text[i] == 'x' || text[i] == 'X') && hexDigit(text[i+1])
}

// skelByte is what the skeleton keeps of text[i] (0: nothing), how many
// bytes after it go with it, and how many kept before it it takes back:
// the prefix of an escaped byte (\x41, \u0041, 0x41: zero says the byte
// before was kept as a 0 that may begin one) and terminal escape
// sequences are dropped.
func skelByte(text string, i, end int, zero bool) (c byte, skip, drop int) {
	switch text[i] {
	case 0x1b:
		return 0, ansiLen(text[i:end]) - 1, 0
	case '\\':
		switch {
		case i+3 < end && text[i+1] == 'x' && hexDigit(text[i+2]) && hexDigit(text[i+3]):
			return 0, 1, 0
		case i+5 < end && text[i+1] == 'u' && text[i+2] == '0' && text[i+3] == '0' && hexDigit(text[i+4]):
			return 0, 3, 0
		}
		return 0, 0, 0
	default: // x, X
		if zero && dropsZero(text, i, end) {
			return 0, 0, 1
		}
		return 'x', 0, 0
	}
}

// ansiLen is the length of the terminal escape sequence s begins with
// (ESC [ … final, ESC ] … BEL or ESC \, or ESC and one byte): colours
// put between a secret's characters say nothing.
func ansiLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']':
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return 2
}

// buffers keeps the skeletons' bytes for the next text: a skeleton is as
// long as its text, and a megabyte cleared for every text costs more
// than making it.
var buffers sync.Pool

func getBuffer(n int) []byte {
	if b, ok := buffers.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]byte, 0, n)
}

// release gives the skeleton's bytes back for the next text.
func (s *skeleton) release() {
	if s != nil && cap(s.b) > 0 {
		b := s.b[:0]
		buffers.Put(&b)
		s.b = nil
	}
}

// skeletonString is the skeleton of s, without offsets.
func skeletonString(s string) string {
	var sk skeleton
	sk.add(s, 0, len(s))
	return string(sk.b)
}
