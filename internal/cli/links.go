package cli

import (
	"fmt"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/secrets"
)

// linkedSecret refuses to attach a file (/insert, @path) that is another
// name of a secret file: a symbolic link leading to one, or a hard link
// sharing its identity. The user named a harmless-looking file; if the
// secret is what they mean to send, they name it. A file with several hard
// links whose other names nb does not know is attached with a note: its
// content still passes the detector.
func (c *chat) linkedSecret(shown, path string) error {
	home := c.io.Getenv("HOME")
	secret, several := secrets.LinkedSecret(path, home, c.secretLinks())
	switch {
	case secret != "":
		how := "leads to"
		if several {
			how = "is a hard link to"
		}
		return fmt.Errorf("insert: %s %s %s, a secret file; not attached (name the secret itself if you mean to send it)", shown, how, secrets.Shown(secret, home))
	case several:
		c.ui.Notice(agent.NoticeWarn, fmt.Sprintf("%s has several hard links whose other names nb does not know; what it holds still passes the secret detector", shown))
	}
	return nil
}

// secretLinks is the index of the secret files by identity, built when
// first needed.
func (a *app) secretLinks() *secrets.Links {
	a.linksOnce.Do(func() { a.links = secrets.NewLinks(a.io.Getenv("HOME"), a.launch) })
	return a.links
}
