package llm

import "fmt"

// StreamTextLimit bounds the answer text a provider or the turn loop keeps
// while it streams: the first 3/4 and the last 1/4 of it, and a count of
// what was cut between. The history keeps less still
// (conversation.maxMessageBytes); the bound only keeps a huge answer from
// filling memory before that cap applies.
const StreamTextLimit = 1 << 20

// TextBuffer accumulates streamed text within a limit: it keeps the head
// and the tail of the text and counts the bytes between them. The zero
// value keeps StreamTextLimit bytes.
type TextBuffer struct {
	// Limit is the most bytes kept (0: StreamTextLimit).
	Limit int
	head  []byte
	tail  []byte // a ring of the last bytes once the head is full
	start int    // where the ring's oldest byte is
	total int64
}

func (b *TextBuffer) limits() (head, tail int) {
	n := b.Limit
	if n <= 0 {
		n = StreamTextLimit
	}
	return n * 3 / 4, n - n*3/4
}

// WriteString appends s.
func (b *TextBuffer) WriteString(s string) {
	b.total += int64(len(s))
	headMax, tailMax := b.limits()
	if room := headMax - len(b.head); room > 0 {
		n := min(room, len(s))
		b.head = append(b.head, s[:n]...)
		s = s[n:]
	}
	if s == "" {
		return
	}
	if len(s) >= tailMax {
		b.tail = append(b.tail[:0], s[len(s)-tailMax:]...)
		b.start = 0
		return
	}
	for len(s) > 0 {
		if len(b.tail) < tailMax {
			n := min(tailMax-len(b.tail), len(s))
			b.tail = append(b.tail, s[:n]...)
			s = s[n:]
			continue
		}
		n := copy(b.tail[b.start:], s)
		b.start = (b.start + n) % tailMax
		s = s[n:]
	}
}

// Len is the length of all the text written, kept or not.
func (b *TextBuffer) Len() int64 { return b.total }

// Cut is the number of bytes not kept.
func (b *TextBuffer) Cut() int64 { return b.total - int64(len(b.head)+len(b.tail)) }

// String is the text: all of it when it fit, else its head, a line saying
// how much was cut, and its tail (cut at whole UTF-8 characters).
func (b *TextBuffer) String() string {
	if b.Cut() == 0 {
		return string(b.head) + string(b.tail[b.start:]) + string(b.tail[:b.start])
	}
	head := b.head
	for len(head) > 0 && head[len(head)-1]&0xC0 == 0x80 {
		head = head[:len(head)-1]
	}
	tail := append(append([]byte(nil), b.tail[b.start:]...), b.tail[:b.start]...)
	for len(tail) > 0 && tail[0]&0xC0 == 0x80 {
		tail = tail[1:]
	}
	cut := b.total - int64(len(head)+len(tail))
	return fmt.Sprintf("%s\n[nb: %d bytes of this answer were cut here while it streamed]\n%s", head, cut, tail)
}
