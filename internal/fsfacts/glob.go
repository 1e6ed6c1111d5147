package fsfacts

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

// maxGlobMatches bounds the words one glob may expand to before it is
// reported incomplete.
const maxGlobMatches = 512

// errGlob stops an expansion that cannot be known exactly.
var errGlob = errors.New("glob not known")

// Glob implements policy.Facts: the words bash (default options: no
// nullglob, dotglob, failglob, extglob or globstar) generates from pattern
// in dir, slash-separated and relative to dir unless pattern is absolute,
// sorted bytewise (bash sorts in the locale's collation order). A name
// beginning with "." matches only a segment beginning with "."; such a
// segment also matches "." and ".." (as bash before 5.2 does): the words
// reported are never fewer than bash's. No match: nil, complete. A pattern
// using what is not modelled here (character classes such as [:alpha:],
// empty segments but a trailing one), a directory that cannot be read, more than 512 words
// or MaxEntries directory entries: complete is false.
func (d Disk) Glob(dir, pattern string) ([]string, bool) {
	budget := d.MaxEntries
	if budget == 0 {
		budget = 20000
	}
	if len(pattern) >= 2 && pattern[1] == ':' {
		return nil, false // a drive path: not modelled
	}
	prefix := ""
	rest := pattern
	if strings.HasPrefix(pattern, "/") {
		prefix, rest = "/", pattern[1:]
	}
	// a trailing slash matches directories only (links to them too)
	trail := strings.HasSuffix(rest, "/") && rest != "/"
	rest = strings.TrimSuffix(rest, "/")
	segs := strings.Split(rest, "/")
	for _, s := range segs {
		if s == "" {
			return nil, false
		}
		if _, err := segPattern(s); err != nil {
			return nil, false
		}
	}
	cands := []string{prefix}
	for i, seg := range segs {
		last := i == len(segs)-1
		var next []string
		for _, c := range cands {
			if !hasMeta(seg) {
				p := c + seg
				if !last {
					p += "/"
				}
				next = append(next, p)
				continue
			}
			names, err := d.matchDir(dir, c, seg, last, &budget)
			if err != nil {
				return nil, false
			}
			next = append(next, names...)
			if len(next) > maxGlobMatches {
				return nil, false
			}
		}
		cands = next
	}
	if !hasMeta(pattern) {
		return nil, true
	}
	var out []string
	for _, c := range cands {
		// literal segments after the last pattern must exist
		if _, err := os.Lstat(diskPath(abs(dir, strings.TrimSuffix(c, "/")))); err == nil {
			if trail {
				if !isDir(abs(dir, c)) {
					continue
				}
				c += "/"
			}
			out = append(out, c)
		} else if !errors.Is(err, fs.ErrNotExist) && !isNotDir(err) {
			return nil, false
		}
	}
	sort.Strings(out)
	return out, true
}

// matchDir lists the entries of the directory c (as written, below dir)
// that seg matches, as c+name (with a slash when more segments follow and
// the entry is a directory).
func (d Disk) matchDir(dir, c, seg string, last bool, budget *int) ([]string, error) {
	p := abs(dir, strings.TrimSuffix(c, "/"))
	if c == "" {
		p = dir
	}
	ents, err := os.ReadDir(diskPath(p))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return nil, nil // bash generates nothing below a missing directory
		}
		return nil, errGlob
	}
	if *budget -= len(ents); *budget < 0 {
		return nil, errGlob
	}
	pat, _ := segPattern(seg)
	names := make([]string, 0, len(ents)+2)
	if strings.HasPrefix(seg, ".") {
		names = append(names, ".", "..")
	}
	for _, e := range ents {
		names = append(names, e.Name())
	}
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, ".") && !strings.HasPrefix(seg, ".") {
			continue // a leading dot is matched only by a dot
		}
		if ok, _ := path.Match(pat, n); !ok {
			continue
		}
		if last {
			out = append(out, c+n)
		} else if isDir(abs(p, n)) {
			out = append(out, c+n+"/")
		}
	}
	return out, nil
}

func abs(dir, p string) string {
	if strings.HasPrefix(p, "/") || dir == "" {
		return p
	}
	if p == "" {
		return dir
	}
	return strings.TrimSuffix(dir, "/") + "/" + p
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// segPattern turns one segment of a bash pattern into a path.Match pattern:
// * and ? are the same; a bracket expression may hold letters, digits, "."
// "_" and ranges, negated by ! or ^. Anything else is not modelled.
func segPattern(seg string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(seg); i++ {
		ch := seg[i]
		switch ch {
		case '\\', ']':
			return "", errGlob
		case '[':
			end := strings.IndexByte(seg[i+1:], ']')
			if end < 0 {
				return "", errGlob // an unclosed [ is literal in bash
			}
			body := seg[i+1 : i+1+end]
			b.WriteByte('[')
			if strings.HasPrefix(body, "!") || strings.HasPrefix(body, "^") {
				b.WriteByte('^')
				body = body[1:]
			}
			if body == "" || strings.HasPrefix(body, "-") || strings.HasSuffix(body, "-") {
				return "", errGlob
			}
			for j := 0; j < len(body); j++ {
				c := body[j]
				if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
					return "", errGlob
				}
			}
			b.WriteString(body)
			b.WriteByte(']')
			i += end + 1
		default:
			b.WriteByte(ch)
		}
	}
	if _, err := path.Match(b.String(), ""); err != nil {
		return "", errGlob
	}
	return b.String(), nil
}
