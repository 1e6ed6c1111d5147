//go:build unix

package secrets

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestLinks: a hard link to a secret file is that secret, whatever its
// name; a hard link to anything else is of unknown origin; a file with
// one link is neither.
func TestLinks(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	creds := filepath.Join(home, ".aws", "credentials")
	write(t, creds, "[default]\naws_secret_access_key = x\n")
	env := filepath.Join(proj, ".env")
	write(t, env, "TOKEN=x\n")
	plain := filepath.Join(proj, "notes.txt")
	write(t, plain, "notes\n")
	cookies := filepath.Join(home, ".config", "Slack", "Cookies")
	write(t, cookies, "sqlite\n")
	if err := os.Mkdir(filepath.Join(proj, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{creds, "notes-aws.txt"}, {env, "config.txt"}, {plain, "plain-link.txt"}, {cookies, "c.txt"}} {
		if err := os.Link(l[0], filepath.Join(proj, "sub", l[1])); err != nil {
			t.Fatal(err)
		}
	}
	links := NewLinks(home, proj)
	for name, want := range map[string]string{"notes-aws.txt": creds, "config.txt": env, "plain-link.txt": "", "c.txt": cookies} {
		secret, several := links.Link(filepath.Join(proj, "sub", name))
		if !several || secret != want {
			t.Errorf("%s: Link = %q, %v; want %q, true", name, secret, several, want)
		}
	}
	single := filepath.Join(proj, "single.txt")
	write(t, single, "x")
	if s, several := links.Link(single); several || s != "" {
		t.Errorf("a file with one link: %q, %v", s, several)
	}
	// through a symbolic link, the file it leads to
	if err := os.Symlink(filepath.Join(proj, "sub", "notes-aws.txt"), filepath.Join(proj, "sym")); err != nil {
		t.Fatal(err)
	}
	if s, _ := links.Link(filepath.Join(proj, "sym")); s != creds {
		t.Errorf("symlink to a hard link: %q", s)
	}
	// a secret made after the index was built is found once it is old
	links.maxAge = 0
	npmrc := filepath.Join(home, ".npmrc")
	write(t, npmrc, "//registry/:_authToken=x\n")
	if err := os.Link(npmrc, filepath.Join(proj, "later.txt")); err != nil {
		t.Fatal(err)
	}
	if s, _ := links.Link(filepath.Join(proj, "later.txt")); s != npmrc {
		t.Errorf("a secret made later: %q", s)
	}
}

func TestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/home/u/.aws/credentials": true, "/home/u/.gitconfig": true, "/srv/app/.env": true, "/etc/shadow": true,
		"/etc/ssh/ssh_host_ed25519_key": true, "/home/u/.config/gh/hosts.yml": true, "/home/u/.config/Slack/Cookies": true,
		"/home/u/src/README.md": false, "/etc/hostname": false, "/home/u/.bashrc": false,
		"/home/u/src/secrets-manager/AGENTS.md": false, "/srv/.ssh/config": true, "/srv/x/.env": true,
	} {
		if got := Path(p, "/home/u"); got != want {
			t.Errorf("Path(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestOtherNames: a link to a secret is that secret, unless its own name
// says it is one.
func TestOtherNames(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	creds := filepath.Join(home, ".aws", "credentials")
	write(t, creds, "[default]\n")
	plain := filepath.Join(proj, "plain.txt")
	write(t, plain, "x")
	links := NewLinks(home, proj)
	mk := func(name string, f func(string) error) string {
		p := filepath.Join(proj, name)
		if err := f(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sym := mk("notes.md", func(p string) error { return os.Symlink(creds, p) })
	hard := mk("AGENTS.md", func(p string) error { return os.Link(creds, p) })
	other := mk("copy.txt", func(p string) error { return os.Link(plain, p) })
	named := mk(".env", func(p string) error { return os.Symlink(creds, p) })
	for p, want := range map[string]struct {
		secret  string
		several bool
	}{
		sym:   {creds, false},
		hard:  {creds, true},
		other: {"", true},
		named: {"", false}, // named as a secret: the caller knows what it reads
		plain: {"", true},
		creds: {"", false},
	} {
		if s, several := LinkedSecret(p, home, links); s != want.secret || several != want.several {
			t.Errorf("%s: %q, %v; want %q, %v", filepath.Base(p), s, several, want.secret, want.several)
		}
	}
}
