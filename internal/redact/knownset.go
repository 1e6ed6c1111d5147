package redact

import (
	"math"
	"slices"
	"strings"
)

// The known secrets are searched for, in all their spellings (forms.go),
// in the skeleton of the text: every 8 characters of the skeleton are
// looked up in an index of the spellings' 8-character pieces, and a hit
// is extended both ways along the spelling it came from. A run as long
// as the spelling's minimum (about 50 bits of it) is withheld: so is a
// part of a secret, the half a cut left or a piece of a dump line, not
// only the whole. Pieces too short to tell from chance (a command
// printing nine characters at a time) are beyond any detector.

// anchorLen is the length of the pieces the index holds.
const anchorLen = 8

// maxFormBytes bounds the spellings kept for the known secrets: past it,
// further values are searched for as they are only.
const maxFormBytes = 8 << 20

// anchor is one piece of a spelling: its 8 bytes, the spelling and the
// offset of the piece in it.
type anchor struct {
	key  uint64
	form int32
	off  int32
}

// knownSet is the index of the spellings of the known secrets.
type knownSet struct {
	// kinds are what each known value is withheld as.
	kinds []string
	forms []form
	// anchors are grouped by their key's hash (group), in the order
	// the spellings were added; the group of hash g is
	// anchors[starts[g]:starts[g+1]].
	anchors []anchor
	starts  []int32
	shift   uint // of a key's hash, to its group
	// filter has a bit set for the hash of every anchor's key.
	filter []uint64
	mask   uint64 // of the filter's word numbers
	bytes  int
}

// add adds the spellings of v, of kind, and reports whether it has any
// long enough to search for. A value with structure (a URL, a connection
// string: parts that anyone may print, such as localhost:5432) is
// searched for whole, and its parts that look secret each on its own,
// also in part.
func (ks *knownSet) add(v, kind string) bool {
	if !structured(v) {
		return ks.addForms(v, kind, false)
	}
	ok := ks.addForms(v, kind, true)
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(structure, r) || r == '.' || r == '/' || r == '=' }) {
		if secretLooking(p) {
			ks.addForms(p, kind, false)
		}
	}
	return ok
}

// structure are the characters that give a value parts.
const structure = ":@;&?, \t\n\r"

// structured reports a value made of parts: a URL, a connection string,
// words.
func structured(v string) bool {
	return strings.Contains(v, "://") || strings.ContainsAny(v, structure)
}

func (ks *knownSet) addForms(v, kind string, whole bool) bool {
	value := int32(len(ks.kinds))
	forms := formsOf(v, value)
	if ks.bytes > maxFormBytes {
		forms = forms[:min(1, len(forms))]
	}
	if len(forms) == 0 {
		return false
	}
	ks.kinds = append(ks.kinds, kind)
	for _, f := range forms {
		f.whole = whole
		ks.forms = append(ks.forms, f)
		ks.bytes += len(f.text)
	}
	return true
}

// build indexes the spellings' pieces and sets the filter; nothing is
// added after.
func (ks *knownSet) build() {
	// about one group per piece: a counting sort of the pieces by
	// group, in two passes over the spellings
	n := 0
	for i := range ks.forms {
		eachPiece(&ks.forms[i], func(int) { n++ })
	}
	bits := uint(1)
	for 1<<bits < n {
		bits++
	}
	ks.shift = 64 - bits
	ks.starts = make([]int32, 1<<bits+1)
	for i := range ks.forms {
		f := &ks.forms[i]
		eachPiece(f, func(off int) { ks.starts[ks.group(load8(f.text[off:]))+1]++ })
	}
	for g := 1; g < len(ks.starts); g++ {
		ks.starts[g] += ks.starts[g-1]
	}
	next := slices.Clone(ks.starts[:len(ks.starts)-1])
	ks.anchors = make([]anchor, n)
	for i := range ks.forms {
		f := &ks.forms[i]
		eachPiece(f, func(off int) {
			key := load8(f.text[off:])
			g := ks.group(key)
			ks.anchors[next[g]] = anchor{key: key, form: int32(i), off: int32(off)}
			next[g]++
		})
	}
	// 32 bits or more a piece, two of them set in one word: a byte of
	// text passes the filter by chance about once in 300
	words := 64
	for words*64 < len(ks.anchors)*32 && words < maxFilterWords {
		words *= 2
	}
	ks.filter = make([]uint64, words)
	ks.mask = uint64(words - 1)
	for _, a := range ks.anchors {
		h := a.key * hashMul
		ks.filter[h>>32&ks.mask] |= filterBits(h)
	}
}

// group is the group of the pieces whose key is key.
func (ks *knownSet) group(key uint64) uint64 { return key * groupMul >> ks.shift }

// groupMul spreads a piece's bytes over the high bits of its product for
// its group, independently of the filter's.
const groupMul = 0xc2b2ae3d27d4eb4f

// eachPiece calls fn with the offset of every piece of f that the index
// holds: a run of need() characters holds a piece at one of its first
// stride offsets, so the pieces between need not be indexed; the last
// piece is indexed too.
func eachPiece(f *form, fn func(off int)) {
	stride := max(1, f.need()-anchorLen+1)
	for off := 0; off+anchorLen <= len(f.text); off += stride {
		fn(off)
	}
	if last := len(f.text) - anchorLen; last%stride != 0 {
		fn(last)
	}
}

// hashMul spreads a piece's bytes over the high bits of its product:
// they name the filter's word (bits 32 on) and the two bits a piece sets
// in it (the top twelve), so that a piece is tested with one
// multiplication, one load and constant shifts.
const hashMul = 0x9e3779b97f4a7c15

// maxFilterWords keeps the word's bits below the top twelve.
const maxFilterWords = 1 << 20

func filterBits(h uint64) uint64 { return 1<<(h>>52&63) | 1<<(h>>58) }

func (ks *knownSet) empty() bool { return ks == nil || len(ks.anchors) == 0 }

func load8(s string) uint64 {
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// run is a part of a skeleton that spells a part of a known secret.
type run struct {
	start, end int // in the skeleton
	form       int32
	whole      bool // the spelling, all of it
}

// reading is one way of reading a skeleton: its every stride-th byte
// from phase on (stride 1: as it is).
type reading struct {
	b             []byte
	phase, stride int
}

func (r reading) len() int      { return (len(r.b) - r.phase + r.stride - 1) / r.stride }
func (r reading) at(k int) byte { return r.b[r.phase+k*r.stride] }
func (r reading) pos(k int) int { return r.phase + k*r.stride }
func (r reading) key(k int) uint64 {
	var key uint64
	for j := anchorLen - 1; j >= 0; j-- {
		key = key<<8 | uint64(r.at(k+j))
	}
	return key
}

// scan returns the runs of a reading of a skeleton that spell known
// secrets. The piece at each position is rolled on from the one before
// it: one byte read, one multiplication and one load of the filter a
// position.
func (ks *knownSet) scan(rd reading, runs []run) []run {
	b, stride := rd.b, rd.stride
	last := rd.phase + (anchorLen-1)*stride // the piece's last byte in b
	if last >= len(b) {
		return runs
	}
	filter, mask := ks.filter, ks.mask
	key := rd.key(0)
	for i := 0; ; {
		if h := key * hashMul; filter[h>>32&mask]&filterBits(h) == filterBits(h) {
			if next := ks.extend(rd, i, key, &runs); next > i {
				i = next + 1
				if last = rd.pos(i + anchorLen - 1); last >= len(b) {
					return runs
				}
				key = rd.key(i)
				continue
			}
		}
		i++
		if last += stride; last >= len(b) {
			return runs
		}
		key = key>>8 | uint64(b[last])<<56
	}
}

// extend adds the runs that the piece key at position i of rd begins,
// extended both ways along the spellings it is a piece of, and returns
// where the search goes on (i when nothing was found).
func (ks *knownSet) extend(rd reading, i int, key uint64, runs *[]run) int {
	next := i
	n := rd.len()
	g := ks.group(key)
	for _, a := range ks.anchors[ks.starts[g]:ks.starts[g+1]] {
		if a.key != key {
			continue
		}
		f := &ks.forms[a.form]
		p := int(a.off)
		l := 0
		for i-l > 0 && p-l > 0 && rd.at(i-l-1) == f.text[p-l-1] {
			l++
		}
		r := anchorLen
		for i+r < n && p+r < len(f.text) && rd.at(i+r) == f.text[p+r] {
			r++
		}
		whole := l+r == len(f.text)
		if l+r < f.need() || !whole && entropyOf(rd, i-l, i+r) < f.kind.minEntropy() {
			continue
		}
		*runs = append(*runs, run{start: i - l, end: i + r, form: a.form, whole: whole})
		next = max(next, i+r-anchorLen)
	}
	return next
}

// find adds the spans of text that spell known secrets: in the text's
// skeleton, in its every second and every third byte (a character put
// after every character: doubled, interleaved), and in the columns of
// the dumps and numbered lines it holds (dump.go).
func (ks *knownSet) find(v *views, spans []span) []span {
	if ks.empty() {
		return spans
	}
	sk := v.skeleton()
	for stride := 1; stride <= maxStride; stride++ {
		for phase := range stride {
			spans = ks.spans(v.text, reading{b: sk.b, phase: phase, stride: stride}, sk.at, spans)
		}
	}
	for _, d := range v.dumps() {
		spans = ks.spans(v.text, reading{b: d.b, stride: 1}, d.at, spans)
	}
	return spans
}

// maxStride is the most characters in a row a spelling is read through
// one of (two put after every character).
const maxStride = 3

// spans turns the runs of one reading of a skeleton of text (at says
// where in text each of the skeleton's bytes came from) into spans of
// text.
func (ks *knownSet) spans(text string, rd reading, at func(int) int, spans []span) []span {
	for _, r := range ks.scan(rd, nil) {
		f := &ks.forms[r.form]
		s := span{start: at(rd.pos(r.start)), end: at(rd.pos(r.end-1)) + 1, kind: ks.kinds[f.value]}
		for s.end < len(text) && text[s.end]&0xc0 == 0x80 {
			s.end++ // the rest of a character of several bytes
		}
		if !r.whole || f.kind != formPlain || strings.IndexByte(text[s.start:s.end], '\n') >= 0 {
			// a part, or a spelling: the word around it goes too (the
			// rest of a base64 line, a dump's group)
			s.start, s.end = wordAround(text, s.start, s.end)
		}
		spans = append(spans, s)
	}
	return spans
}

// maxWord bounds how far a span is widened to the word around it.
const maxWord = 1024

// wordAround widens [start, end) to the blanks or quotes around it.
func wordAround(text string, start, end int) (int, int) {
	stop := func(c byte) bool { return blank(c) || c == '"' || c == '\'' || c == '`' }
	for lo := max(0, start-maxWord); start > lo && !stop(text[start-1]); start-- {
	}
	for hi := min(len(text), end+maxWord); end < hi && !stop(text[end]); end++ {
	}
	return start, end
}

// entropyOf is the Shannon entropy, in bits a byte, of the bytes of rd
// from start to end.
func entropyOf(rd reading, start, end int) float64 {
	var counts [256]int
	for k := start; k < end; k++ {
		counts[rd.at(k)]++
	}
	e := 0.0
	for _, n := range counts {
		if n > 0 {
			p := float64(n) / float64(end-start)
			e -= p * math.Log2(p)
		}
	}
	return e
}
