// Package mention finds "@path" mentions of project files in a message and
// completes them: the project's files as git sees them (ignored files left
// out), matched fuzzily against what was typed.
package mention

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nb-cli/nb/internal/gitcmd"
)

// maxFiles bounds the files listed for completion.
const maxFiles = 50000

// Files lists the files of the project in dir, relative to dir with
// forward slashes: in a git work tree the files git tracks or would track
// (its ignore rules applied by git itself), else every file below dir
// outside hidden directories. At most maxFiles.
func Files(ctx context.Context, dir string) ([]string, error) {
	if files, err := gitFiles(ctx, dir); err == nil {
		return files, nil
	}
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are left out
		}
		if len(files) >= maxFiles {
			return filepath.SkipAll
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return files, nil
}

// gitFiles asks git for the files of the work tree at dir: tracked ones and
// untracked ones its ignore rules do not exclude.
func gitFiles(ctx context.Context, dir string) ([]string, error) {
	// ls-files --others would run the repository's core.fsmonitor:
	// gitcmd turns it off.
	out, err := gitcmd.Command(ctx, dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate").Output()
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range bytes.Split(out, []byte{0}) {
		if len(f) == 0 {
			continue
		}
		if len(files) >= maxFiles {
			break
		}
		name := string(f)
		// Deleted but still tracked files are not there to attach.
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		files = append(files, name)
	}
	return files, nil
}

// Match returns the files query matches, best first, at most limit: every
// character of the query in order (case-insensitive), scored higher for
// matches in the file name, at word starts and in a row, and for shorter
// paths. An empty query matches every file, shortest first.
func Match(files []string, query string, limit int) []string {
	type scored struct {
		path  string
		score int
	}
	var out []scored
	q := []rune(strings.ToLower(query))
	for _, f := range files {
		if s, ok := score(f, q); ok {
			out = append(out, scored{f, s})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		if len(out[i].path) != len(out[j].path) {
			return len(out[i].path) < len(out[j].path)
		}
		return out[i].path < out[j].path
	})
	if len(out) > limit {
		out = out[:limit]
	}
	paths := make([]string, len(out))
	for i, s := range out {
		paths[i] = s.path
	}
	return paths
}

// score matches q (lower case) as a subsequence of path.
func score(path string, q []rune) (int, bool) {
	p := []rune(strings.ToLower(path))
	base := strings.LastIndex(path, "/") + 1
	baseRunes := utf8.RuneCountInString(path[:base])
	s, pi, prev := 0, 0, -2
	for _, c := range q {
		found := false
		for ; pi < len(p); pi++ {
			if p[pi] != c {
				continue
			}
			s++
			if pi == prev+1 {
				s += 3 // in a row
			}
			if pi == 0 || !unicode.IsLetter(p[pi-1]) && !unicode.IsDigit(p[pi-1]) {
				s += 2 // at a word start
			}
			if pi >= baseRunes {
				s += 2 // in the file name
			}
			prev = pi
			pi++
			found = true
			break
		}
		if !found {
			return 0, false
		}
	}
	// A query that is the path's start, or the whole file name, is best.
	lq := string(q)
	if strings.HasPrefix(string(p), lq) {
		s += 10
	}
	if lq != "" && string(p[baseRunes:]) == lq {
		s += 20
	}
	return s - len(p)/16, true
}

// Mention is one "@path" in a message.
type Mention struct {
	Path       string // as written, without the @
	Start, End int    // byte offsets of "@path" in the message
}

// Find returns the mentions in text: an "@" at the start or after a space,
// followed by a path up to the next space (a trailing period, comma,
// colon, semicolon, question or exclamation mark, or closing bracket
// belongs to the sentence). "user@host" is no mention.
func Find(text string) []Mention {
	var out []Mention
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || i > 0 && !isSpace(text[i-1]) && text[i-1] != '(' {
			continue
		}
		j := i + 1
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		path := strings.TrimRight(text[i+1:j], ".,:;?!)]}'\"")
		if path != "" {
			out = append(out, Mention{Path: path, Start: i, End: i + 1 + len(path)})
		}
		i = j
	}
	return out
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// Word returns the mention being typed at cursor (a byte offset) in text:
// the offset of its "@" and what follows it up to the cursor; ok is false
// when the cursor is not in a mention.
func Word(text string, cursor int) (start int, query string, ok bool) {
	if cursor > len(text) {
		return 0, "", false
	}
	i := cursor
	for i > 0 && !isSpace(text[i-1]) {
		i--
	}
	if i >= len(text) || text[i] != '@' {
		return 0, "", false
	}
	return i, text[i+1 : cursor], true
}
