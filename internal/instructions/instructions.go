// Package instructions finds the project instruction files (AGENTS.md, or
// CLAUDE.md / GEMINI.md where a directory has none) that apply to a run and turns them into a section of the system prompt.
// They are text for the model, never configuration: nothing in them
// changes what nb allows or asks.
package instructions

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nb-cli/nb/internal/secrets"
)

// FileName is the name of nb's own instruction file.
const FileName = "AGENTS.md"

// FileNames are the instruction files a project directory may hold, in
// order of preference: a directory contributes the first one present, so
// projects written for other assistants (CLAUDE.md, GEMINI.md) are read
// where they carry no AGENTS.md. The global file is AGENTS.md only.
var FileNames = []string{FileName, "CLAUDE.md", "GEMINI.md"}

// DefaultMaxBytes caps the instructions of one run, all files together.
const DefaultMaxBytes = 32 << 10

// File is one instruction file as it goes into the prompt.
type File struct {
	Path string
	// Global marks the file in nb's configuration directory.
	Global bool
	// Text is what the prompt includes: the file, or its head when the
	// cap cut it ("" when nothing of it fitted).
	Text string
	// Size is the file's size in bytes.
	Size int
	// Cut is set when Text is not the whole file.
	Cut bool
}

// Find returns the instruction files for a run launched in dir, in prompt
// order: the global one (globalDir/AGENTS.md) first, then those of the
// repository root and of every directory below it down to dir, so the most
// specific comes last; each directory contributes its first file of
// FileNames. Outside a repository (no .git above dir) only dir's own file
// applies. Together they hold at most maxBytes. The global file keeps up to
// half of the budget whatever the project holds; the project files share
// the rest, the most specific served first, and files beyond it are cut or
// left empty; what the project leaves unused goes to the global file.
// Files that cannot be read are skipped and reported in warnings, and so
// are files that are other names of secret files (home is the home
// directory, for telling them; secretLink).
func Find(dir, globalDir, home string, maxBytes int) (files []File, warnings []string) {
	global := ""
	if globalDir != "" {
		global = filepath.Join(filepath.Clean(globalDir), FileName)
	}
	var candidates [][]string // per directory, the names to try in order
	for _, d := range chain(dir) {
		var names []string
		for _, n := range FileNames {
			names = append(names, filepath.Join(d, n))
		}
		if slices.Contains(names, global) {
			global = "" // the configuration directory is in the chain
		}
		candidates = append(candidates, names)
	}
	if global != "" {
		candidates = append([][]string{{global}}, candidates...)
	}
	var links *secrets.Links
	for _, names := range candidates {
		for _, p := range names {
			if why := secretLink(p, home, &links); why != "" {
				warnings = append(warnings, why)
				break
			}
			f, err := read(p, maxBytes)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				warnings = append(warnings, err.Error())
			} else {
				f.Global = p == global
				files = append(files, f)
			}
			break // the directory's file, read or not, is this one
		}
	}
	// The global file's share, then the project's budget from the most
	// specific file up, then the global file gets what is left.
	reserved := 0
	if len(files) > 0 && files[0].Global {
		reserved = min(len(files[0].Text), maxBytes/2)
	}
	left := maxBytes - reserved
	for i := len(files) - 1; i >= 0; i-- {
		f := &files[i]
		if f.Global {
			left += reserved
		}
		if len(f.Text) > left {
			f.Text, f.Cut = cut(f.Text, left), true
		}
		left -= len(f.Text)
	}
	return files, warnings
}

// secretLink says why the instruction file p is not read: it is another
// name of a secret file (a symbolic link leading to one, a hard link
// sharing its identity), or it has several hard links and none of its
// other names is an instruction file beside it, so nothing vouches for
// what it is. A file that is read only because of its name must be that
// file. links is built when first needed.
func secretLink(p, home string, links **secrets.Links) string {
	if _, err := os.Lstat(p); err != nil {
		return ""
	}
	if *links == nil {
		*links = secrets.NewLinks(home, filepath.Dir(p))
	}
	secret, several := secrets.LinkedSecret(p, home, *links)
	switch {
	case secret != "":
		return fmt.Sprintf("instructions: %s is another name of %s, a secret file; not read", p, secrets.Shown(secret, home))
	case several && !linkedSibling(p):
		return fmt.Sprintf("instructions: %s has several hard links whose other names nb does not know; not read (make it a file of its own)", p)
	}
	return ""
}

// linkedSibling reports whether another instruction file beside p is
// the same file (AGENTS.md and CLAUDE.md linked together).
func linkedSibling(p string) bool {
	id, _, err := secrets.Identity(p)
	if err != nil {
		return false
	}
	for _, n := range FileNames {
		q := filepath.Join(filepath.Dir(p), n)
		if q == p {
			continue
		}
		if other, _, err := secrets.Identity(q); err == nil && other == id {
			return true
		}
	}
	return false
}

// chain lists the directories whose instructions apply to dir: from the
// repository root down to dir, or dir alone outside a repository.
func chain(dir string) []string {
	dir = filepath.Clean(dir)
	dirs := []string{dir}
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			// reverse: root first
			for i, j := 0, len(dirs)-1; i < j; i, j = i+1, j-1 {
				dirs[i], dirs[j] = dirs[j], dirs[i]
			}
			return dirs
		}
		parent := filepath.Dir(d)
		if parent == d {
			return []string{dir}
		}
		d = parent
		dirs = append(dirs, d)
	}
}

// read reads at most limit bytes of an instruction file.
func read(path string, limit int) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, err
		}
		return File{}, fmt.Errorf("instructions: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return File{}, fmt.Errorf("instructions: %w", err)
	}
	if !st.Mode().IsRegular() {
		return File{}, fmt.Errorf("instructions: %s is not a regular file; ignored", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)))
	if err != nil {
		return File{}, fmt.Errorf("instructions: %w", err)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return File{}, fmt.Errorf("instructions: %s is binary; ignored", path)
	}
	text := strings.ToValidUTF8(string(data), "\uFFFD")
	out := File{Path: path, Text: text, Size: int(st.Size())}
	if int64(len(data)) < st.Size() {
		out.Text, out.Cut = cut(text, limit), true
	}
	return out, nil
}

// cut returns the head of s in at most n bytes, ending at a line break
// when one is near, on a rune boundary otherwise.
func cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	head := s[:n]
	if i := strings.LastIndexByte(head, '\n'); i >= n*3/4 {
		head = head[:i+1]
	}
	return head
}

// Section is the system-prompt section holding files ("" when none has
// text).
func Section(files []File) string {
	var b strings.Builder
	for _, f := range files {
		if strings.TrimSpace(f.Text) == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("## Project instructions\n")
			b.WriteString("The user keeps these instruction files for AI assistants (AGENTS.md, or CLAUDE.md or GEMINI.md written for other assistants), most general first. Follow them where they do not conflict with the user's requests. They do not approve commands: every command still goes through nb's approval.\n")
		}
		label := f.Path
		if f.Global {
			label += " (global)"
		}
		fmt.Fprintf(&b, "\n### %s\n%s\n", label, strings.TrimRight(f.Text, "\n"))
		if f.Cut {
			fmt.Fprintf(&b, "[... %s cut: %d of %d bytes included ...]\n", filepath.Base(f.Path), len(f.Text), f.Size)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Describe is one line per file for /context and --verbose.
func Describe(f File) string {
	s := fmt.Sprintf("%s (%d bytes", f.Path, f.Size)
	switch {
	case f.Cut && f.Text == "":
		s += ", left out: the instructions cap is reached"
	case f.Cut:
		s += fmt.Sprintf(", cut to %d", len(f.Text))
	}
	if f.Global {
		s += ", global"
	}
	return s + ")"
}
