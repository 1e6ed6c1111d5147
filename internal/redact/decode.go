package redact

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"io"
	"strings"
	"unicode/utf8"
)

// A secret nb does not know but would recognise by its shape (a forge
// token in a project's file) can be encoded by a command too: base64
// (gzip first, or not), hexadecimal, a hex dump. The blobs of base64 and
// of hex digits a text holds are decoded (and decompressed: gzip, zlib,
// bzip2), and what decodes to text is scanned like a text; a blob
// holding a secret is withheld whole. Only text is scanned: a blob that
// decodes to binary data (a checksum, an image) is left alone. What is
// decompressed is bounded (a bomb costs no more than a few megabytes of
// scanning): past the bound, compressed data is left as it is, which no
// model reads without a tool, whose output is screened in its turn.

// Bounds of decoding: the shortest blob decoded (in characters: 16 bytes
// of base64, 12 of hex), the most a blob may decompress to, and how
// deep blobs in decoded text are decoded again (base64 of base64).
const (
	minBase64Blob  = 24
	minHexBlob     = 24
	maxInflated    = 1 << 20
	maxInflatedAll = 4 << 20
	maxDecodeDepth = 2
)

// blob is a run of an encoding in a text: its bounds and its characters
// (line breaks and separators left out).
type blob struct {
	start, end int
	data       string
	hex        bool
	// dump is set for the data column of a dump: the characters column
	// after it, to the end of its last line, goes with it
	dump bool
}

// findEncoded adds the spans of the blobs of text that decode to a text
// holding a secret.
func (d *Detector) findEncoded(v *views, depth int, inflated *int, released func(string) bool, spans []span) []span {
	if depth >= maxDecodeDepth {
		return spans
	}
	text := v.text
	for _, b := range v.blobs() {
		for _, plain := range b.decode(inflated) {
			r := d.redactDepth(plain, depth+1, inflated, released)
			if len(r.Found) == 0 {
				continue
			}
			start, end := wordAround(text, b.start, b.end)
			if b.dump {
				end = lineAround(text, b.end-1).end
			}
			spans = append(spans, span{start: start, end: end, kind: r.Found[0].Kind})
			break
		}
	}
	return spans
}

// blobs returns the base64 and hex blobs of the text.
func (v *views) blobs() []blob {
	out := base64Blobs(v.text)
	out = hexBlobs(v.skeleton(), false, out)
	for _, d := range v.dumps() {
		out = hexBlobs(d, true, out)
	}
	return out
}

// base64Table marks the bytes of base64 (either alphabet, and padding).
var base64Table = func() (t [256]bool) {
	for c := range 256 {
		t[c] = alnumByte(byte(c)) || c == '+' || c == '/' || c == '-' || c == '_' || c == '='
	}
	return t
}()

// hexTable marks hex digits.
var hexTable = func() (t [256]bool) {
	for c := range 256 {
		t[c] = hexDigit(byte(c))
	}
	return t
}()

// base64Blobs returns the runs of base64 characters of text, the lines
// of one wrapped run (lines of one length, the last shorter) joined.
func base64Blobs(text string) []blob {
	var out []blob
	for i := 0; i < len(text); {
		start, end, ok := nextRun(text, i, &base64Table)
		if !ok {
			break
		}
		i = end
		word := text[start:end]
		wrapped := end < len(text) && text[end] == '\n' && len(word) >= 16 && mixed(word)
		if len(word) < minBase64Blob && !wrapped || !plausibleBase64(word) {
			continue
		}
		b := blob{start: start, end: end, data: word}
		for width := len(word); wrapped && !strings.HasSuffix(b.data, "="); {
			// the next line of a wrapped run
			j := b.end + 1
			for j < len(text) && base64Table[text[j]] {
				j++
			}
			if j == b.end+1 || j-(b.end+1) > width {
				break
			}
			b.data += text[b.end+1 : j]
			wrapped = j-(b.end+1) == width && j < len(text) && text[j] == '\n'
			b.end = j
		}
		i = b.end
		out = append(out, b)
	}
	return out
}

// nextRun returns the next run, from i on, of at least 8 bytes of s that
// class marks, looking at 8 bytes at a time: a run that long holds a
// whole block of 8 aligned on a multiple of 8.
func nextRun[S ~string | ~[]byte](s S, i int, class *[256]bool) (start, end int, ok bool) {
	for blk := (i + 7) &^ 7; blk+8 <= len(s); blk += 8 {
		if !(class[s[blk]] && class[s[blk+1]] && class[s[blk+2]] && class[s[blk+3]] &&
			class[s[blk+4]] && class[s[blk+5]] && class[s[blk+6]] && class[s[blk+7]]) {
			continue
		}
		start, end = blk, blk+8
		for start > i && class[s[start-1]] {
			start--
		}
		for end < len(s) && class[s[end]] {
			end++
		}
		return start, end, true
	}
	return 0, 0, false
}

// plausibleBase64 reports a word that may be base64: of one alphabet
// (+ and /, or - and _), and holding an upper-case letter (base64 of
// text, of 18 bytes or more, all but always does; a path does not).
func plausibleBase64(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return r >= 'A' && r <= 'Z' }) >= 0 &&
		!(strings.ContainsAny(w, "+/") && strings.ContainsAny(w, "-_"))
}

// mixed reports a word of upper and lower case letters and digits: a
// short first line of a wrapped run.
func mixed(w string) bool {
	var l, u, d bool
	for i := 0; i < len(w); i++ {
		c := w[i]
		l = l || c >= 'a' && c <= 'z'
		u = u || c >= 'A' && c <= 'Z'
		d = d || c >= '0' && c <= '9'
	}
	return l && u && d
}

// hexBlobs adds the runs of hex digits of a skeleton (a text's, or a
// dump's data column).
func hexBlobs(sk skeleton, dump bool, out []blob) []blob {
	for i := 0; i < len(sk.b); {
		start, end, ok := nextRun(sk.b, i, &hexTable)
		if !ok {
			break
		}
		if end-start >= minHexBlob {
			out = append(out, blob{start: sk.at(start), end: sk.at(end-1) + 1, data: string(sk.b[start:end]), hex: true, dump: dump})
		}
		i = end
	}
	return out
}

// decode returns the texts the blob may stand for: for hex, both
// alignments and the 16-bit words of od -x; for base64, either alphabet.
func (b blob) decode(inflated *int) []string {
	var raw [][]byte
	if b.hex {
		for off := 0; off < 2; off++ {
			s := b.data[off:]
			if p, err := hex.DecodeString(s[:len(s)&^1]); err == nil {
				raw = append(raw, p, swapped(p))
			}
		}
	} else {
		s := strings.TrimRight(b.data, "=")
		if len(s)%4 == 1 {
			s = s[:len(s)-1] // a lone last character holds no byte
		}
		enc := base64.RawStdEncoding
		if strings.ContainsAny(s, "-_") {
			enc = base64.RawURLEncoding
		}
		if p, err := enc.DecodeString(s); err == nil {
			raw = append(raw, p)
		}
	}
	var out []string
	for _, p := range raw {
		if t, ok := textOf(inflate(p, inflated)); ok {
			out = append(out, t)
		}
	}
	return out
}

// inflate decompresses p when it begins as gzip, zlib or bzip2 data does,
// while the text's bound on decompressed bytes allows.
func inflate(p []byte, inflated *int) []byte {
	room := min(maxInflated, maxInflatedAll-*inflated)
	if room <= 0 {
		return p
	}
	var r io.Reader
	var err error
	switch {
	case bytes.HasPrefix(p, []byte{0x1f, 0x8b}):
		r, err = gzip.NewReader(bytes.NewReader(p))
	case len(p) > 2 && p[0] == 0x78 && (uint16(p[0])<<8|uint16(p[1]))%31 == 0:
		r, err = zlib.NewReader(bytes.NewReader(p))
	case bytes.HasPrefix(p, []byte("BZh")):
		r = bzip2.NewReader(bytes.NewReader(p))
	default:
		return p
	}
	if err != nil {
		return p
	}
	out, _ := io.ReadAll(io.LimitReader(r, int64(room)))
	*inflated += len(out)
	if len(out) == 0 {
		return p
	}
	return out
}

// textOf returns p as text when it is one: UTF-8 whose characters are
// nearly all printable or blanks.
func textOf(p []byte) (string, bool) {
	if len(p) < 8 || !utf8.Valid(p) {
		return "", false
	}
	bad := 0
	for _, c := range p {
		if c < ' ' && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			bad++
		}
	}
	return string(p), bad*20 <= len(p)
}
