package changes

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nb-cli/nb/internal/textdiff"
)

// Kind is what a change did to a path, as /changes and the JSON outputs
// name it.
type Kind string

const (
	Created  Kind = "created"
	Modified Kind = "modified"
	Deleted  Kind = "deleted"
	Renamed  Kind = "renamed"
)

// File is one path's change: what it held before and what it holds after.
// A rename is two files: the old path deleted (RenamedTo set) and the new
// one created or replaced (RenamedFrom set); each is applied and undone on
// its own path.
type File struct {
	Path        string `json:"path"`
	Before      State  `json:"before"`
	After       State  `json:"after"`
	RenamedFrom string `json:"renamedFrom,omitempty"`
	RenamedTo   string `json:"renamedTo,omitempty"`
	// Source is what the old path of a rename held: the new path's
	// diff is shown against it.
	Source State `json:"-"`
}

// shownBefore is the state a diff of f starts from.
func (f File) shownBefore() State {
	if f.RenamedFrom != "" {
		return f.Source
	}
	return f.Before
}

// Kind is what the change did.
func (f File) Kind() Kind {
	switch {
	case f.RenamedFrom != "":
		return Renamed
	case !f.Before.Exists():
		return Created
	case !f.After.Exists():
		return Deleted
	}
	return Modified
}

// Bytes is the size of what the path holds after the change (before it,
// for a deletion).
func (f File) Bytes() int64 {
	s := f.After
	if !s.Exists() {
		s = f.Before
	}
	if s.Size > 0 {
		return s.Size
	}
	return int64(len(s.Data))
}

// Set is the files one action changes.
type Set struct {
	Files []File `json:"files"`
	// Unkept are files the change touched whose content before it nb
	// did not keep (over MaxFile): such a change cannot be undone.
	Unkept []string `json:"unkept,omitempty"`
	// Output is what the command that made the changes printed in its
	// preview, shown at the approval with them.
	Output string `json:"-"`
}

// Visible are the files a listing shows: the old path of a rename is
// shown with the new one.
func (s *Set) Visible() []File {
	var out []File
	for _, f := range s.Files {
		if f.RenamedTo == "" {
			out = append(out, f)
		}
	}
	return out
}

// Summary is one line naming what the set changes: "edited main.go",
// "3 files: created a, modified b, deleted c".
func (s *Set) Summary(base string) string {
	vis := s.Visible()
	var parts []string
	for i, f := range vis {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("%d more", len(vis)-i))
			break
		}
		name := Shown(f.Path, base)
		if f.RenamedFrom != "" {
			name = Shown(f.RenamedFrom, base) + " → " + name
		}
		parts = append(parts, string(f.Kind())+" "+name)
	}
	if len(vis) == 1 {
		return parts[0]
	}
	return fmt.Sprintf("%d files: %s", len(vis), strings.Join(parts, ", "))
}

// ConflictError says that a path does not hold what a change expects:
// someone changed it since nb saw it.
type ConflictError struct {
	Path string
	// Want says what nb expected ("as shown at the approval", "as nb left
	// it").
	Want string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s changed since %s", e.Path, e.Want)
}

// Apply makes every path of s hold its After state, after checking that
// each still holds its Before state (the state the user approved); a path
// that does not is a *ConflictError and nothing is written. A write that
// fails midway puts back the paths already written.
func Apply(fsys *FS, s *Set) error {
	return move(fsys, s, false, "nb showed it")
}

// Revert puts every path of s back to its Before state, after checking
// that each still holds its After state.
func Revert(fsys *FS, s *Set) error {
	return move(fsys, s, true, "nb changed it")
}

func move(fsys *FS, s *Set, back bool, want string) error {
	from := func(f File) State { return f.Before }
	to := func(f File) State { return f.After }
	if back {
		from, to = to, from
	}
	// A path that already holds what it is to hold is left alone: a run
	// cut short (nb killed during /undo) is finished by the next one,
	// not refused as a change someone made.
	type read struct {
		cur State
		err error
	}
	reads := make([]read, len(s.Files))
	eachAtOnce(len(s.Files), func(i int) {
		reads[i].cur, reads[i].err = fsys.Read(s.Files[i].Path)
	})
	var todo []File
	for i, f := range s.Files {
		cur, err := reads[i].cur, reads[i].err
		if err != nil {
			return err
		}
		switch {
		case Same(cur, from(f)):
			todo = append(todo, f)
		case Same(cur, to(f)):
			continue
		default:
			return &ConflictError{Path: f.Path, Want: want}
		}
		if to(f).Exists() && to(f).Type != Dir && to(f).Data == nil && to(f).Size > 0 {
			return fmt.Errorf("%s: the content to write is not kept", f.Path)
		}
	}
	order := ordered(todo, to)
	// Many files are synced once, together, rather than one by one.
	fsys.lazy = canSyncFS && len(order) > lazyFiles
	defer func() { fsys.lazy = false }()
	for i, f := range order {
		if err := fsys.Write(f.Path, to(f)); err != nil {
			err = fmt.Errorf("%s: %w", f.Path, err)
			var stuck []string
			for k := i - 1; k >= 0; k-- {
				if fsys.Write(order[k].Path, from(order[k])) != nil {
					stuck = append(stuck, order[k].Path)
				}
			}
			if len(stuck) > 0 {
				err = fmt.Errorf("%w; these could not be put back as they were: %s", err, strings.Join(stuck, ", "))
			}
			return err
		}
	}
	if fsys.lazy {
		return fsys.syncAll()
	}
	return nil
}

// lazyFiles is the number of files past which a change syncs the file
// system once instead of each file.
const lazyFiles = 8

// ordered sorts files so that removals come first, deepest first, then
// everything else, shallowest first: a directory is emptied before it goes
// and made before what goes in it.
func ordered(files []File, to func(File) State) []File {
	out := append([]File(nil), files...)
	depth := func(p string) int { return strings.Count(filepath.Clean(p), string(filepath.Separator)) }
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := !to(out[i]).Exists(), !to(out[j]).Exists()
		if ri != rj {
			return ri
		}
		if ri {
			return depth(out[i].Path) > depth(out[j].Path)
		}
		return depth(out[i].Path) < depth(out[j].Path)
	})
	return out
}

// IsConflict reports whether err is a conflict and returns it.
func IsConflict(err error) (*ConflictError, bool) {
	var c *ConflictError
	ok := errors.As(err, &c)
	return c, ok
}

// Diff is the comparison of a file's two states when both are text,
// else nil.
func (f File) Diff() []textdiff.Line {
	b := f.shownBefore()
	if !b.Text() || !f.After.Text() || b.Type == Dir || f.After.Type == Dir || b.Type == Symlink || f.After.Type == Symlink {
		return nil
	}
	if b.Type == Absent && f.After.Type == Absent {
		return nil
	}
	return textdiff.Compare(string(b.Data), string(f.After.Data))
}

// Note describes what a diff cannot show: binary content, a link's
// target, a mode: "" when the diff says it all.
func (f File) Note() string {
	var notes []string
	b, a := f.shownBefore(), f.After
	if b.Type != a.Type && b.Exists() && a.Exists() {
		notes = append(notes, fmt.Sprintf("%s → %s", b.Type, a.Type))
	}
	if a.Type == Symlink && (b.Type != Symlink || string(b.Data) != string(a.Data)) {
		notes = append(notes, "link to "+string(a.Data))
	}
	if a.Type == Dir && !b.Exists() {
		notes = append(notes, "directory")
	}
	if b.Exists() && a.Exists() && b.Mode != a.Mode && b.Type == a.Type && a.Type != Symlink {
		notes = append(notes, fmt.Sprintf("mode %04o → %04o", uint32(b.Mode), uint32(a.Mode)))
	}
	if (!b.Text() || !a.Text()) && a.Type == Regular {
		notes = append(notes, fmt.Sprintf("binary, %d → %d bytes", len(b.Data), len(a.Data)))
	}
	return strings.Join(notes, "; ")
}

// Patch is the set as plain unified diffs, for a text-only approval (an
// MCP client's question) and the full view a file keeps.
func (s *Set) Patch(base string) string {
	var b strings.Builder
	for _, f := range s.Visible() {
		name := Shown(f.Path, base)
		from, to := "a/"+name, "b/"+name
		if f.RenamedFrom != "" {
			from = "a/" + Shown(f.RenamedFrom, base)
		}
		if !f.Before.Exists() && f.RenamedFrom == "" {
			from = "/dev/null"
		}
		if !f.After.Exists() {
			to = "/dev/null"
		}
		fmt.Fprintf(&b, "%s %s\n", f.Kind(), name)
		if n := f.Note(); n != "" {
			fmt.Fprintf(&b, "(%s)\n", n)
		}
		if f.Diff() != nil {
			b.WriteString(textdiff.Unified(from, to, string(f.shownBefore().Data), string(f.After.Data), 3))
		}
	}
	return b.String()
}
