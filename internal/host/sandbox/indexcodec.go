package sandbox

import (
	"encoding/binary"
	"errors"
	"math"
)

// The index is kept in a compact binary form of its own, read at the
// start of every process that sandboxes a command: a generic encoding
// (gob) took about a millisecond to read a machine's few hundred
// directories, on the command's way. The form: a header (indexMagic and
// indexVersion), then every tree, then the secrets' identities; numbers
// are varints, strings and lists are preceded by their length. Anything
// else, or anything cut short, is no index at all (loadIndex starts
// afresh).

// indexMagic opens an index file.
const indexMagic = "nbsx"

var errBadIndex = errors.New("bad sandbox index")

// encodeIndex is ix in the index's form.
func encodeIndex(ix *index) []byte {
	e := &indexWriter{b: make([]byte, 0, 16<<10)}
	e.b = append(e.b, indexMagic...)
	e.uint(uint64(ix.Version))
	e.uint(uint64(len(ix.Trees)))
	for key, t := range ix.Trees {
		e.str(key)
		e.int(t.Used)
		e.uint(uint64(len(t.Dirs)))
		for rel, d := range t.Dirs {
			e.str(rel)
			e.int(d.Ino)
			e.int(d.Mtime)
			e.int(d.Ctime)
			e.bool(d.Racy)
			e.int(int64(d.N))
			e.strs(d.Subs)
			e.strs(d.Hits)
			e.uint(uint64(len(d.Multi)))
			for _, m := range d.Multi {
				e.str(m.Name)
				e.uint(m.Dev)
				e.uint(m.Ino)
			}
			e.uint(uint64(len(d.Content)))
			for _, c := range d.Content {
				e.str(c.Name)
				e.int(c.Ino)
				e.int(c.Size)
				e.int(c.Mtime)
				e.int(c.Ctime)
				e.bool(c.Racy)
				e.strs(c.Hits)
			}
			e.strs(d.Elsewhere)
		}
	}
	e.uint(uint64(len(ix.Secrets)))
	for _, s := range ix.Secrets {
		e.uint(s[0])
		e.uint(s[1])
	}
	return e.b
}

// decodeIndex reads an index in its form.
func decodeIndex(b []byte) (*index, error) {
	if len(b) < len(indexMagic) || string(b[:len(indexMagic)]) != indexMagic {
		return nil, errBadIndex
	}
	d := newIndexReader(b[len(indexMagic):])
	ix := newIndex()
	ix.Version = int(d.uint())
	if ix.Version != indexVersion {
		return nil, errBadIndex
	}
	for range d.count() {
		key := d.str()
		t := &treeIndex{Used: d.int()}
		n := d.count()
		t.Dirs = make(map[string]*dirRec, n)
		recs := make([]dirRec, n)
		for i := range recs {
			rel := d.str()
			r := &recs[i]
			*r = dirRec{Ino: d.int(), Mtime: d.int(), Ctime: d.int(), Racy: d.bool(), N: int(d.int()), Subs: d.strs(), Hits: d.strs()}
			for range d.count() {
				r.Multi = append(r.Multi, multiRec{Name: d.str(), Dev: d.uint(), Ino: d.uint()})
			}
			for range d.count() {
				r.Content = append(r.Content, contentRec{Name: d.str(), Ino: d.int(), Size: d.int(), Mtime: d.int(), Ctime: d.int(), Racy: d.bool(), Hits: d.strs()})
			}
			r.Elsewhere = d.strs()
			t.Dirs[rel] = r
		}
		ix.Trees[key] = t
	}
	for range d.count() {
		ix.Secrets = append(ix.Secrets, [2]uint64{d.uint(), d.uint()})
	}
	if d.err != nil || d.left() != 0 {
		return nil, errBadIndex
	}
	return ix, nil
}

type indexWriter struct{ b []byte }

func (e *indexWriter) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *indexWriter) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }

func (e *indexWriter) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *indexWriter) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *indexWriter) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

// indexReader reads the index's form; after the first error every read
// gives zero values and err stays set. Strings are cut from one copy of
// the whole (s), not allocated one by one.
type indexReader struct {
	b   []byte
	s   string
	off int
	err error
}

func newIndexReader(b []byte) *indexReader {
	return &indexReader{b: b, s: string(b)}
}

func (d *indexReader) fail() {
	d.err, d.off = errBadIndex, len(d.b)
}

// left is how many bytes are left.
func (d *indexReader) left() int { return len(d.b) - d.off }

func (d *indexReader) uint() uint64 {
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

func (d *indexReader) int() int64 {
	v, n := binary.Varint(d.b[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

func (d *indexReader) bool() bool {
	if d.left() == 0 || d.b[d.off] > 1 {
		d.fail()
		return false
	}
	v := d.b[d.off] == 1
	d.off++
	return v
}

// count is a list's length, which cannot be more than the bytes left
// (every element takes one at least).
func (d *indexReader) count() int {
	n := d.uint()
	if n > uint64(d.left()) || n > math.MaxInt32 {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *indexReader) str() string {
	n := d.count()
	v := d.s[d.off : d.off+n]
	d.off += n
	return v
}

func (d *indexReader) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}
