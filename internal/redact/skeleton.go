package redact

import (
	"slices"
	"sync"
)

// A text is read several ways, each made once when first needed: as it
// is, as its skeleton (its letters and digits in lower case: the known
// secrets' spellings are searched for there, whatever case, separators
// and escapes a command put in), and as the columns of the hex dumps it
// holds (dump.go).

// views are the ways of reading one text, each made once when first
// needed: its skeleton, the columns of its dumps.
type views struct {
	text   string
	sk     *skeleton
	dumped bool
	dump   []skeleton
}

func (v *views) skeleton() skeleton {
	if v.sk == nil {
		v.sk = &skeleton{}
		v.sk.add(v.text, 0, len(v.text))
	}
	return *v.sk
}

// release gives the views' buffers back once the text is scanned.
func (v *views) release() {
	v.sk.release()
	for i := range v.dump {
		v.dump[i].release()
	}
}

func (v *views) dumps() []skeleton {
	if !v.dumped {
		v.dump, v.dumped = dumpViews(v.text), true
	}
	return v.dump
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
		from := j // where a byte read from several begins
		j += skip
		zero = b == '0' && prefixZero(s.text, j, int(c.start))
		if b == 0 {
			continue
		}
		if n == k && !(zero && dropsZero(s.text, j+1, int(c.end))) {
			return from
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
		case c == '\\' || c == 'x' || c == 'X' || c == 0x1b || c == fullwidthLead:
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
// the prefix of an escaped byte (\x41, \u0041, &#x41;, 0x41: zero says the byte
// before was kept as a 0 that may begin one) and terminal escape
// sequences are dropped.
func skelByte(text string, i, end int, zero bool) (c byte, skip, drop int) {
	switch text[i] {
	case fullwidthLead:
		if c := fullwidth(text, i, end); c != 0 {
			return c, 2, 0
		}
		return 0, 0, 0
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
		switch {
		case zero && dropsZero(text, i, end):
			return 0, 0, 1
		case i >= 2 && text[i-1] == '#' && text[i-2] == '&':
			return 0, 0, 0 // &#x41;
		}
		return 'x', 0, 0
	}
}

// fullwidthLead is the first byte of the UTF-8 of the fullwidth forms of
// ASCII's letters and digits (U+FF10 to U+FF5A).
const fullwidthLead = 0xef

// fullwidth is the letter (in lower case) or digit whose fullwidth form
// text[i:] begins with, 0 for none: a secret printed in them is the same
// secret.
func fullwidth(text string, i, end int) byte {
	if i+2 >= end {
		return 0
	}
	b1, b2 := text[i+1], text[i+2]
	switch {
	case b1 == 0xbc && b2 >= 0x90 && b2 <= 0x99: // U+FF10..FF19
		return '0' + b2 - 0x90
	case b1 == 0xbc && b2 >= 0xa1 && b2 <= 0xba: // U+FF21..FF3A
		return 'a' + b2 - 0xa1
	case b1 == 0xbd && b2 >= 0x81 && b2 <= 0x9a: // U+FF41..FF5A
		return 'a' + b2 - 0x81
	}
	return 0
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
