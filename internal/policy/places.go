package policy

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/nb-cli/nb/internal/shellparse"
)

// namedPaths are the absolute paths that the words and the redirections
// of a command that only writes files name (Decision.Paths), as the
// directories its commands run in make them: the places it may write,
// for the preview to overlay. Read-only commands name none; an option's
// value counts after "="; a pattern counts by the directory before its
// first pattern character (the one it runs in when none); a word known only at run time names none (the
// preview's sandbox refuses what it writes elsewhere).
func namedPaths(a *shellparse.Analysis, as *assessment) []string {
	var out []string
	add := func(w shellparse.Word, dirs shellparse.Dirs) {
		text := w.Text
		if w.Dynamic || dirs.Unknown || w.Pipe {
			return
		}
		if strings.HasPrefix(text, "-") {
			_, v, ok := strings.Cut(text, "=")
			if !ok {
				return
			}
			text = v
		}
		if w.Glob {
			i := strings.IndexAny(text, "*?[")
			if text = text[:strings.LastIndex(text[:i], "/")+1]; text == "" {
				text = "." // a pattern of the directory it runs in
			}
		}
		if text == "" {
			return
		}
		for _, d := range dirs.Paths {
			p := text
			if !filepath.IsAbs(p) {
				p = filepath.Join(d, p)
			}
			out = append(out, filepath.Clean(p))
		}
	}
	for _, l := range a.Leaves {
		if info := as.info.of(l); info != nil && info.safe {
			continue
		}
		for _, w := range l.Args() {
			add(w, l.Dir)
		}
	}
	for _, r := range a.Redirs {
		if r.Write || r.Append {
			add(r.Target, r.Dir)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
