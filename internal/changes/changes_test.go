package changes

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// tree returns every path below dir with its state, for byte-for-byte
// comparisons of whole trees (type, mode, content, link target).
func tree(t *testing.T, dir string) map[string]State {
	t.Helper()
	fsys, err := Open(dir)
	must(t, err)
	defer fsys.Close()
	out := map[string]State{}
	must(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		s, err := fsys.Read(p)
		if err != nil {
			return err
		}
		out[p[len(dir):]] = s
		return nil
	}))
	return out
}

func sameTree(t *testing.T, got, want map[string]State) {
	t.Helper()
	var names []string
	for k := range want {
		names = append(names, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		g, w := got[k], want[k]
		if g.Type != w.Type || g.Mode != w.Mode || !bytes.Equal(g.Data, w.Data) {
			t.Errorf("%s: got %s %o %q, want %s %o %q", k, g.Type, g.Mode, g.Data, w.Type, w.Mode, w.Data)
		}
	}
}

// world is a small tree: a file, an executable, a link, a directory.
func world(t *testing.T) (string, *FS) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "d", "x"), []byte{0, 1, 2}, 0o600))
	if runtime.GOOS != "windows" {
		must(t, os.Symlink("a.txt", filepath.Join(dir, "link")))
	}
	fsys, err := Open(dir)
	must(t, err)
	t.Cleanup(func() { fsys.Close() })
	return dir, fsys
}

// changeOf reads each path now as Before and pairs it with after.
func changeOf(t *testing.T, fsys *FS, after map[string]State) *Set {
	s := &Set{}
	var names []string
	for p := range after {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		b, err := fsys.Read(p)
		must(t, err)
		s.Files = append(s.Files, File{Path: p, Before: b, After: after[p]})
	}
	return s
}

// Apply then Revert gives back the tree byte for byte: contents, modes,
// links, created and removed directories.
func TestApplyRevertRoundTrip(t *testing.T) {
	dir, fsys := world(t)
	orig := tree(t, dir)
	j := func(p string) string { return filepath.Join(dir, p) }
	set := changeOf(t, fsys, map[string]State{
		j("a.txt"):        {Type: Regular, Mode: 0o600, Data: []byte("beta\r\n")},
		j("run.sh"):       {},
		j("d/x"):          {},
		j("d"):            {},
		j("new/deep.txt"): {Type: Regular, Mode: 0o644, Data: []byte("ü\n")},
		j("new"):          {Type: Dir, Mode: 0o755},
	})
	if runtime.GOOS != "windows" {
		set.Files = append(set.Files, File{Path: j("link"), Before: orig["/link"], After: State{Type: Symlink, Data: []byte("run.sh")}})
	}
	must(t, Apply(fsys, set))
	got := tree(t, dir)
	if got["/a.txt"].Mode != 0o600 || string(got["/a.txt"].Data) != "beta\r\n" || got["/run.sh"].Exists() || got["/d"].Exists() || string(got["/new/deep.txt"].Data) != "ü\n" {
		t.Fatalf("applied tree: %v", got)
	}
	must(t, Revert(fsys, set))
	sameTree(t, tree(t, dir), orig)
}

// A path that does not hold what the change expects is a conflict naming
// it, and nothing at all is written.
func TestConflictsWriteNothing(t *testing.T) {
	dir, fsys := world(t)
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "run.sh")
	set := changeOf(t, fsys, map[string]State{a: {Type: Regular, Mode: 0o644, Data: []byte("new a\n")}, b: {Type: Regular, Mode: 0o755, Data: []byte("new b\n")}})
	must(t, os.WriteFile(b, []byte("someone else\n"), 0o755))
	err := Apply(fsys, set)
	c, ok := IsConflict(err)
	if !ok || c.Path != b {
		t.Fatalf("apply after a change: %v", err)
	}
	if got, _ := os.ReadFile(a); string(got) != "alpha\n" {
		t.Errorf("a.txt written despite the conflict: %q", got)
	}
	// a mode change alone is a change too
	must(t, os.WriteFile(b, []byte("#!/bin/sh\n"), 0o755))
	set = changeOf(t, fsys, map[string]State{a: {Type: Regular, Mode: 0o644, Data: []byte("new a\n")}})
	must(t, Apply(fsys, set))
	if runtime.GOOS != "windows" {
		must(t, os.Chmod(a, 0o600))
		if _, ok := IsConflict(Revert(fsys, set)); !ok {
			t.Error("revert after a chmod was not a conflict")
		}
	}
}

// The journal keeps what each change replaced, in its directory, so that
// a later nb undoes it byte for byte; undo refuses, naming the file, when
// someone changed it since, and walks back one entry at a time.
func TestJournalUndo(t *testing.T) {
	dir, fsys := world(t)
	orig := tree(t, dir)
	state := t.TempDir()
	j1, err := OpenJournal(state, nil)
	must(t, err)
	a := filepath.Join(dir, "a.txt")
	first := changeOf(t, fsys, map[string]State{a: {Type: Regular, Mode: 0o644, Data: []byte("one\n")}})
	must(t, Apply(fsys, first))
	if _, err := j1.Record("edit_file", "edit: a.txt", first); err != nil {
		t.Fatal(err)
	}
	second := changeOf(t, fsys, map[string]State{a: {Type: Regular, Mode: 0o644, Data: []byte("two\n")}, filepath.Join(dir, "d", "x"): {}})
	must(t, Apply(fsys, second))
	if _, err := j1.Record("run_cmd", "run: make", second); err != nil {
		t.Fatal(err)
	}

	j2, err := OpenJournal(state, nil) // another nb continuing the conversation
	must(t, err)
	if n := len(j2.Entries()); n != 2 {
		t.Fatalf("reopened journal has %d entries", n)
	}
	must(t, os.WriteFile(a, []byte("edited by hand\n"), 0o644))
	_, err = j2.Undo(fsys)
	if c, ok := IsConflict(err); !ok || c.Path != a {
		t.Fatalf("undo after a hand edit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "d", "x")); err == nil {
		t.Fatal("a refused undo restored part of the change")
	}
	must(t, os.WriteFile(a, []byte("two\n"), 0o644))
	e, err := j2.Undo(fsys)
	must(t, err)
	if e.N != 2 || !e.Undone {
		t.Fatalf("undid %+v", e)
	}
	if e, err = j2.Undo(fsys); err != nil || e.N != 1 {
		t.Fatalf("second undo: %+v %v", e, err)
	}
	sameTree(t, tree(t, dir), orig)
	if _, err := j2.Undo(fsys); !errors.Is(err, ErrNothing) {
		t.Fatalf("undo with nothing left: %v", err)
	}
	if blobs, _ := os.ReadDir(filepath.Join(state, "blobs")); len(blobs) != 0 {
		t.Errorf("kept contents of undone changes: %d", len(blobs))
	}
}

// A change whose earlier content nb did not keep is not undone at all.
func TestJournalRefusesUnkept(t *testing.T) {
	dir, fsys := world(t)
	j, _ := OpenJournal("", func() time.Time { return time.Unix(0, 0) })
	set := changeOf(t, fsys, map[string]State{filepath.Join(dir, "a.txt"): {Type: Regular, Mode: 0o644, Data: []byte("x")}})
	set.Unkept = []string{"big.iso"}
	must(t, Apply(fsys, set))
	if _, err := j.Record("run_cmd", "run: x", set); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Undo(fsys); err == nil {
		t.Fatal("undo of a change with unkept content")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(got) != "x" {
		t.Fatalf("a.txt = %q", got)
	}
}

// An undo cut short (nb killed after it put back some files and before it
// noted the entry undone) is finished by the next /undo, not refused as a
// change someone made.
func TestUndoFinishesAnInterruptedOne(t *testing.T) {
	dir, fsys := world(t)
	orig := tree(t, dir)
	j, err := OpenJournal(t.TempDir(), nil)
	must(t, err)
	a, x := filepath.Join(dir, "a.txt"), filepath.Join(dir, "d", "x")
	set := changeOf(t, fsys, map[string]State{a: {Type: Regular, Mode: 0o644, Data: []byte("one\n")}, x: {}})
	must(t, Apply(fsys, set))
	if _, err := j.Record("run_cmd", "run: make", set); err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(x, []byte{0, 1, 2}, 0o600)) // the half /undo did
	must(t, os.Chmod(x, 0o600))
	if _, err := j.Undo(fsys); err != nil {
		t.Fatalf("undo after an interrupted one: %v", err)
	}
	sameTree(t, tree(t, dir), orig)
}

// A journal nb cannot trust is not used, and not overwritten: one a newer
// nb wrote, one whose digests are not digests (they name files in the
// blobs directory: "../../x" would lead out of it).
func TestJournalRefusedWhole(t *testing.T) {
	for doc, want := range map[string]string{
		`{"format":"nb-changes","version":2,"entries":[]}`: "written by a newer nb (version 2",
		`{"format":"nb-changes","version":1,"entries":[{"n":1,"set":{"files":[{"path":"/x","before":{"type":"file","sum":"../../../etc/passwd","size":3},"after":{"type":"file","sum":"absent"}}]}}]}`: "not a journal nb can read",
		`{"format":"nb-changes","version":1,"entries":[`: "not a journal nb can read",
	} {
		state := t.TempDir()
		p := filepath.Join(state, "journal.json")
		must(t, os.WriteFile(p, []byte(doc), 0o600))
		_, err := OpenJournal(state, nil)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want an error naming the file and saying %q", doc, err, want)
		}
		if got, _ := os.ReadFile(p); string(got) != doc {
			t.Errorf("the journal was changed: %s", got)
		}
	}
}

// Same says what equal digests say, whether the states hold their bytes
// or only their digest (a journal's after-states).
func TestSameIsDigestEquality(t *testing.T) {
	states := []State{
		{}, {Type: Regular, Mode: 0o644}, {Type: Regular, Mode: 0o644, Data: []byte{}}, {Type: Regular, Mode: 0o644, Data: []byte("a")},
		{Type: Regular, Mode: 0o755, Data: []byte("a")}, {Type: Regular, Mode: 0o644 | fs.ModeSetuid, Data: []byte("a")},
		{Type: Regular, Mode: 0o644, Data: []byte("b")}, {Type: Symlink, Mode: 0o777, Data: []byte("a")},
		{Type: Dir, Mode: 0o755}, {Type: Dir, Mode: 0o700}, {Type: Regular, Mode: 0o644 | fs.ModeType&fs.ModeNamedPipe, Data: []byte("a")},
	}
	for _, a := range states {
		for _, b := range states {
			want := a.Digest() == b.Digest()
			if got := Same(a, b); got != want {
				t.Errorf("Same(%+v, %+v) = %v, digests equal %v", a, b, got, want)
			}
			if got := Same(a.Sealed(), b); got != want {
				t.Errorf("Same(sealed %+v, %+v) = %v, digests equal %v", a, b, got, want)
			}
		}
	}
}

// A file read at the size it had is read whole however it changed since:
// grown, shrunk or empty.
func TestReadSized(t *testing.T) {
	for _, c := range []struct {
		data string
		size int64
	}{{"0123456789", 3}, {"0123456789", 10}, {"01", 10}, {"", 0}, {"abc", 0}} {
		got, err := readSized(strings.NewReader(c.data), c.size)
		if err != nil || string(got) != c.data {
			t.Errorf("readSized(%q, %d) = %q, %v", c.data, c.size, got, err)
		}
	}
}

// TestRevertFailingMidwayKeepsContent: an undo whose second write fails
// puts back the first path only where it still has what to write; a
// state kept by its digest alone (the journal's after-states) is never
// written as an empty file, and the error names what stayed reverted.
func TestRevertFailingMidwayKeepsContent(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "d", "b")
	must(t, os.WriteFile(a, []byte("a1"), 0o644))
	must(t, os.MkdirAll(filepath.Join(b, "kept"), 0o755)) // not empty: b cannot become a file again
	after := State{Type: Regular, Mode: 0o644, Data: []byte("a1")}.Sealed()
	after.Data = nil // kept by its digest only
	set := &Set{Files: []File{
		{Path: a, Before: State{Type: Regular, Mode: 0o644, Data: []byte("a0")}, After: after},
		{Path: b, Before: State{Type: Regular, Mode: 0o644, Data: []byte("b0")}, After: State{Type: Dir, Mode: fs.ModeDir | 0o755}},
	}}
	fsys, err := Open(dir)
	must(t, err)
	defer fsys.Close()
	err = Revert(fsys, set)
	if err == nil || !strings.Contains(err.Error(), a) {
		t.Fatalf("revert: %v, want an error naming %s", err, a)
	}
	got, rerr := os.ReadFile(a)
	must(t, rerr)
	if string(got) != "a0" {
		t.Errorf("a holds %q after the failed undo, want the reverted a0 (not an empty file)", got)
	}
}
