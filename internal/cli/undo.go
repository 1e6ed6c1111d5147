package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/visible"
)

// openJournal opens the journal of the conversation's changes: kept in
// nb's state beside the history, so that a later nb continuing the
// conversation (a single-shot run, --resume) can undo them; in memory
// with --no-history or no state directory.
func (c *chat) openJournal() {
	dir := ""
	if c.history != nil && c.state != "" {
		dir = changes.JournalDir(c.state, c.history.Path())
	}
	j, err := changes.OpenJournal(dir, c.io.Now)
	if err != nil {
		c.ui.Notice(agent.NoticeWarn, err.Error()+"; changes are kept in memory for this run only")
		j, _ = changes.OpenJournal("", c.io.Now)
	}
	c.journal = j
}

// recordChange adds the files a call changed to the journal.
func (a *app) recordChange(r agent.Record) {
	if a.journal == nil || r.Outcome != agent.Ran || r.Result == nil || r.Result.Changes == nil || len(r.Result.Changes.Files) == 0 {
		return
	}
	what := r.Call.Name
	if r.Decision != nil {
		what = firstLineOf(r.Decision.Display)
	}
	if _, err := a.journal.Record(r.Call.Name, what, r.Result.Changes); err != nil {
		fmt.Fprintln(a.io.Err, "nb: could not record the change for /undo: "+err.Error())
	}
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// slashUndo reverts the last change nb applied and shows what it put back.
func (c *chat) slashUndo(_ context.Context, args []string) error {
	if len(args) != 0 {
		return fmt.Errorf("usage: /undo")
	}
	fsys, err := changes.Open(filepath.VolumeName(c.launch) + string(filepath.Separator))
	if err != nil {
		return fmt.Errorf("undo: %w", err)
	}
	defer fsys.Close()
	e, err := c.journal.Undo(fsys)
	if errors.Is(err, changes.ErrNothing) {
		return fmt.Errorf("nothing to undo: nb has applied no change in this conversation (/changes lists them)")
	}
	if conflict, ok := changes.IsConflict(err); ok {
		return fmt.Errorf("not undone: %s changed since nb changed it (change %d, %s); nothing was restored", visible.String(changes.Shown(conflict.Path, c.workdir.Cwd())), e.N, visible.String(e.What))
	}
	if err != nil {
		return fmt.Errorf("undo: %w", err)
	}
	pal := style.Palette{Color: c.io.Color}
	var b strings.Builder
	fmt.Fprintf(&b, "undid change %d (%s):\n", e.N, visible.String(e.What))
	var restored []string
	for _, f := range e.Set.Visible() {
		name := visible.String(changes.Shown(f.Path, c.workdir.Cwd()))
		line := ""
		switch f.Kind() {
		case changes.Created:
			line = "removed " + name + pal.Muted(" (the change created it)")
		case changes.Deleted:
			line = "restored " + name + pal.Muted(" (the change deleted it)")
		case changes.Renamed:
			line = "moved " + name + " back to " + visible.String(changes.Shown(f.RenamedFrom, c.workdir.Cwd()))
		default:
			line = "restored " + name
		}
		fmt.Fprintf(&b, "  %s\n", line)
		restored = append(restored, string(f.Kind())+" "+changes.Shown(f.Path, c.launch))
	}
	c.println("%s", strings.TrimRight(b.String(), "\n"))
	// The model is told with the next message: the files are not what it
	// left them.
	c.pendingText = append(c.pendingText, fmt.Sprintf("[nb: the user undid change %d (%s): the files are back as they were before it: %s]", e.N, e.What, strings.Join(restored, ", ")))
	return nil
}

// slashChanges lists the changes nb applied in this conversation.
func (c *chat) slashChanges(_ context.Context, args []string) error {
	if len(args) != 0 {
		return fmt.Errorf("usage: /changes")
	}
	entries := c.journal.Entries()
	if len(entries) == 0 {
		c.println("no changes in this conversation")
		return nil
	}
	pal := style.Palette{Color: c.io.Color}
	var b strings.Builder
	for _, e := range entries {
		line := fmt.Sprintf("%3d  %s  %s", e.N, e.When.Local().Format("15:04"), visible.String(e.Set.Summary(c.workdir.Cwd())))
		if e.Undone {
			line = pal.Strike(line) + pal.Muted("  undone")
		}
		fmt.Fprintf(&b, "%s\n", style.Truncate(line, max(c.io.Width(), 40)))
	}
	b.WriteString(pal.Muted("/undo reverts the last change not undone"))
	c.println("%s", b.String())
	return nil
}
