//go:build unix

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/tool"
)

// noticeUI records the notices of a chat; nothing else of the UI is used.
type noticeUI struct {
	chatUI
	notices []string
}

func (u *noticeUI) Notice(_ agent.NoticeKind, msg string) { u.notices = append(u.notices, msg) }

// TestAttachRefusesOtherNamesOfSecrets: /insert and an @path mention do
// not attach a file that is another name of a secret file — a hard link
// sharing its device and inode, or a symbolic link leading to it — and
// say which secret; a file with several hard links of unknown origin is
// attached with a note; a plain file is attached.
func TestAttachRefusesOtherNamesOfSecrets(t *testing.T) {
	home, ws, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	creds := filepath.Join(home, ".aws", "credentials")
	if err := os.MkdirAll(filepath.Dir(creds), 0o700); err != nil {
		t.Fatal(err)
	}
	const canary = "aws_secret_access_key = cnry-insert-link"
	for p, text := range map[string]string{creds: canary + "\n", filepath.Join(ws, "plain.txt"): "plain\n", filepath.Join(elsewhere, "other.txt"): "other\n"} {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, err := range []error{
		os.Link(creds, filepath.Join(ws, "notes.txt")),
		os.Symlink(creds, filepath.Join(ws, "readme.txt")),
		os.Link(filepath.Join(elsewhere, "other.txt"), filepath.Join(ws, "shared.txt")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	newChat := func() (*chat, *noticeUI) {
		io, _, _, _ := iostreams.Test(map[string]string{"HOME": home})
		ui := &noticeUI{}
		return &chat{app: &app{io: io, workdir: tool.NewWorkdir(ws), launch: ws}, ui: ui}, ui
	}
	ctx := context.Background()
	for name, how := range map[string]string{"notes.txt": "is a hard link to ~/.aws/credentials", "readme.txt": "leads to ~/.aws/credentials"} {
		c, _ := newChat()
		if err := c.slashInsert(ctx, []string{name}); err == nil || !strings.Contains(err.Error(), how) {
			t.Errorf("/insert %s: %v, want it refused (%s)", name, err, how)
		}
		c, ui := newChat()
		c.attachMentions(ctx, "what is in @"+name+"?")
		if len(ui.notices) != 1 || !strings.Contains(ui.notices[0], how) {
			t.Errorf("@%s: notices %q, want it refused (%s)", name, ui.notices, how)
		}
		if strings.Contains(strings.Join(c.pendingText, ""), "cnry-insert-link") {
			t.Errorf("@%s: the secret was attached", name)
		}
	}
	c, ui := newChat()
	if err := c.slashInsert(ctx, []string{"shared.txt"}); err != nil || len(c.pendingText) != 1 || !strings.Contains(strings.Join(ui.notices, "\n"), "several hard links") {
		t.Errorf("/insert of a file with several links: %v, %d attached, notices %q", err, len(c.pendingText), ui.notices)
	}
	c, _ = newChat()
	if err := c.slashInsert(ctx, []string{"plain.txt"}); err != nil || len(c.pendingText) != 1 {
		t.Errorf("/insert plain.txt: %v, %d attached", err, len(c.pendingText))
	}
}
