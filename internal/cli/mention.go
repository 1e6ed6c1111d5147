package cli

import (
	"context"
	"fmt"
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

// mentioned lists the files a message mentions with "@path", each once,
// with what it says about them; a mention that names no file (an @handle)
// is left out.
func (c *chat) mentioned(text string) (names []string, infos []os.FileInfo) {
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
		if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
			names, infos = append(names, m.Path), append(infos, fi)
		}
	}
	return names, infos
}

// attachMentions attaches the files a message mentions with "@path", as
// /insert does.
func (c *chat) attachMentions(ctx context.Context, text string) {
	names, _ := c.mentioned(text)
	for _, name := range names {
		if err := c.slashInsert(ctx, []string{name}); err != nil {
			c.ui.Notice(agent.NoticeWarn, "@"+name+": "+err.Error())
		}
	}
}

// mentionNote is the line under the message being typed that says which
// files its mentions will attach when it is sent: typed or pasted, an
// attachment is seen before it goes.
func (c *chat) mentionNote(buf string) string {
	if !strings.Contains(buf, "@") {
		return ""
	}
	names, infos := c.mentioned(buf)
	if len(names) == 0 {
		return ""
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s (%s)", n, sizeText(infos[i].Size()))
	}
	return "sending attaches " + strings.Join(parts, ", ")
}

// sizeText is a file size in bytes, KiB or MiB.
func sizeText(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KiB", (n+1023)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
