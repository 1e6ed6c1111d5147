package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/mention"
)

// mentionCandidates is how many files Tab offers for an "@" mention.
const mentionCandidates = 12

// mentionFiles caches the project's files for completion, listed again
// when the directory changes or the list is older than a few seconds.
type mentionFiles struct {
	mu    sync.Mutex
	dir   string
	at    time.Time
	files []string
}

func (m *mentionFiles) get(dir string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.files == nil || m.dir != dir || time.Since(m.at) > 5*time.Second {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		files, err := mention.Files(ctx, dir)
		cancel()
		if err != nil {
			files = []string{}
		}
		m.dir, m.at, m.files = dir, time.Now(), files
	}
	return m.files
}

// completeMention completes the "@path" being typed with the project's
// files that match it fuzzily.
func (c *chat) completeMention() func(buf string, cursor int) (int, []string, bool) {
	var cache mentionFiles
	return func(buf string, cursor int) (int, []string, bool) {
		start, query, ok := mention.Word(buf, cursor)
		if !ok {
			return 0, nil, false
		}
		matches := mention.Match(cache.get(c.workdir.Cwd()), query, mentionCandidates)
		cands := make([]string, len(matches))
		for i, m := range matches {
			cands[i] = "@" + m
		}
		return start, cands, true
	}
}

// attachMentions attaches the files a message mentions with "@path", as
// /insert does; a mention that names no file (an @handle) is left alone.
func (c *chat) attachMentions(ctx context.Context, text string) {
	seen := map[string]bool{}
	for _, m := range mention.Find(text) {
		if seen[m.Path] {
			continue
		}
		seen[m.Path] = true
		path := m.Path
		if strings.HasPrefix(path, "~/") {
			path = filepath.Join(c.io.Getenv("HOME"), path[2:])
		} else if !filepath.IsAbs(path) {
			path = filepath.Join(c.workdir.Cwd(), path)
		}
		if fi, err := os.Stat(path); err != nil || fi.IsDir() {
			continue
		}
		if err := c.slashInsert(ctx, []string{m.Path}); err != nil {
			c.ui.Notice(agent.NoticeWarn, "@"+m.Path+": "+err.Error())
		}
	}
}
