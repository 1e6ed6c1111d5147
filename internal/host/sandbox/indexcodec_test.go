package sandbox

import (
	"path/filepath"
	"reflect"
	"testing"
)

// sampleIndex has every field of every record set.
func sampleIndex() *index {
	ix := newIndex()
	ix.Trees["home\x00/home/u"] = &treeIndex{Used: 1_700_000_000, Dirs: map[string]*dirRec{
		".": {Ino: 2, Mtime: 1_700_000_000_123_456_789, Ctime: -5, Racy: true, N: 7, Subs: []string{"a", "b c"}, Hits: []string{".netrc", "d/é"},
			Multi:     []multiRec{{Name: "hard", Dev: 1 << 40, Ino: 99}},
			Content:   []contentRec{{Name: "config.json", Ino: 5, Size: 1234, Mtime: 6, Ctime: 7, Racy: true, Hits: []string{"config.json"}}},
			Elsewhere: []string{".git", "link"}},
		"a": {Ino: 3},
	}}
	ix.Trees["tree\x00/ws"] = &treeIndex{Dirs: map[string]*dirRec{}}
	ix.Secrets = [][2]uint64{{1, 2}, {1 << 63, 3}}
	return ix
}

// The index's form gives back what was written, and nothing from a file
// cut short or not an index at all.
func TestIndexCodec(t *testing.T) {
	ix := sampleIndex()
	b := encodeIndex(ix)
	got, err := decodeIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ix) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, ix)
	}
	for n := range len(b) {
		if _, err := decodeIndex(b[:n]); err == nil {
			t.Fatalf("an index cut at %d of %d bytes was read", n, len(b))
		}
	}
	if _, err := decodeIndex(append(b, 0)); err == nil {
		t.Error("an index followed by more was read")
	}
	// A file of the old form (or anything else) starts afresh.
	file := filepath.Join(t.TempDir(), "index")
	write(t, file, "\x0f\xff\x81\x03\x01\x01\x05index", 0o600)
	if l := loadIndex(file); len(l.Trees) != 0 || l.Version != indexVersion {
		t.Errorf("a foreign file read as %+v", l)
	}
	// Kept and read again through the file.
	ix.changed = true
	ix.save(file)
	if l := loadIndex(file); !reflect.DeepEqual(l.Trees, ix.Trees) || !reflect.DeepEqual(l.Secrets, ix.Secrets) {
		t.Errorf("saved and loaded: %+v", l)
	}
}

// Whatever a file holds, reading it neither panics nor allocates beyond
// its size, and what it accepts it writes back the same.
func FuzzDecodeIndex(f *testing.F) {
	f.Add(encodeIndex(sampleIndex()))
	f.Add(encodeIndex(newIndex()))
	f.Add([]byte(indexMagic + "\x02\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, err := decodeIndex(b)
		if err != nil {
			return
		}
		again, err := decodeIndex(encodeIndex(ix))
		if err != nil || !reflect.DeepEqual(again, ix) {
			t.Fatalf("read back differently: %v", err)
		}
	})
}
