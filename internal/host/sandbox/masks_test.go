package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layoutRoot is a directory for a layout test outside /tmp (homes there
// are never hidden as a whole: systemDirs).
func layoutRoot(t *testing.T) string {
	t.Helper()
	return resolve(newWorld(t).root)
}

// indexWorld is a layout root, with a home holding a key, whose walks'
// records are trusted at once (racyWindow).
func indexWorld(t *testing.T) (d, home, ws string) {
	t.Helper()
	old := racyWindow
	racyWindow = 0
	t.Cleanup(func() { racyWindow = old })
	d = layoutRoot(t)
	home, ws = filepath.Join(d, "home"), filepath.Join(d, "ws")
	write(t, home+"/.ssh/id_ed25519", "KEY", 0o600)
	return d, home, ws
}

func write(t *testing.T, p, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// layoutSpec is a read-only spec over the places of sys, as root or not.
func layoutSpec(t *testing.T, ws, home, index string, sys sysPlaces, root bool) *readOnlySpec {
	t.Helper()
	s := newReadOnlySpec(Options{LaunchDir: ws, Home: home, Index: index, sys: &sys}, []string{"PATH=/usr/bin:/bin"}, nil)
	s.root = root
	return s
}

func unreadable(l Layout, p string) bool {
	return underAny(p, l.Masked) || underAny(p, l.Hidden) && !underAny(p, l.Visible)
}

// Other users' homes: people's hidden as a whole, wherever they are (the
// user database, the homes directory, root's), but the workspace kept
// below one; a system account's dot-entries only.
func TestLayoutOtherHomes(t *testing.T) {
	d := layoutRoot(t)
	home := filepath.Join(d, "homes", "me")
	alice := filepath.Join(d, "srv", "alice")
	bob := filepath.Join(d, "homes", "bob")
	pg := filepath.Join(d, "lib", "postgresql")
	rootHome := filepath.Join(d, "root")
	ws := filepath.Join(bob, "shared", "ws")
	for _, f := range []string{
		home + "/notes", alice + "/notes", alice + "/.ssh/id_ed25519", bob + "/private", ws + "/code",
		pg + "/.psql_history", pg + "/data/base", rootHome + "/.bash_history",
	} {
		write(t, f, "x", 0o644)
	}
	passwd := filepath.Join(d, "passwd")
	write(t, passwd, "root:x:0:0::"+rootHome+":/bin/sh\nalice:x:1001:1001::"+alice+":/bin/sh\npostgres:x:120:120::"+pg+":/bin/sh\nme:x:1000:1000::"+home+":/bin/sh\n", 0o644)
	s := layoutSpec(t, ws, home, "", sysPlaces{passwd: passwd, homes: filepath.Join(d, "homes"), rootHome: rootHome}, false)
	l := s.layout(ws)
	for _, p := range []string{alice + "/notes", alice + "/.ssh/id_ed25519", bob + "/private", rootHome + "/.bash_history", pg + "/.psql_history"} {
		if !unreadable(l, p) {
			t.Errorf("%s readable: %+v", p, l)
		}
	}
	for _, p := range []string{home + "/notes", ws + "/code", pg + "/data/base"} {
		if unreadable(l, p) {
			t.Errorf("%s unreadable: %+v", p, l)
		}
	}
}

// Run by root, what no other user may read in the system's trees is
// masked; what others read is not.
func TestLayoutRootSystemTrees(t *testing.T) {
	d := layoutRoot(t)
	etc := filepath.Join(d, "etc")
	write(t, etc+"/app/secret.conf", "x", 0o600)
	write(t, etc+"/app/public.conf", "x", 0o644)
	write(t, etc+"/locked/inside", "x", 0o644)
	if err := os.Chmod(etc+"/locked", 0o700); err != nil {
		t.Fatal(err)
	}
	// a temporary directory's entries come and go: no mask names them
	write(t, etc+"/tmp/session/x", "x", 0o600)
	if err := os.Chmod(etc+"/tmp", 0o1777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(etc+"/tmp/session", 0o700); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(d, "ws")
	write(t, ws+"/code", "x", 0o600)
	sys := sysPlaces{passwd: filepath.Join(d, "none"), homes: filepath.Join(d, "none"), trees: []string{etc, d}}
	for _, root := range []bool{true, false} {
		l := layoutSpec(t, ws, "", "", sys, root).layout(ws)
		for _, p := range []string{etc + "/app/secret.conf", etc + "/locked/inside"} {
			if unreadable(l, p) != root {
				t.Errorf("root %v: %s unreadable %v: %v", root, p, !root, l.Masked)
			}
		}
		if unreadable(l, etc+"/app/public.conf") || unreadable(l, ws+"/code") || unreadable(l, etc+"/tmp/session") {
			t.Errorf("root %v: readable files masked: %v", root, l.Masked)
		}
	}
}

// The walks' records are kept between processes, and a change is seen:
// a new secret file, a file whose content makes it secret, a new name of
// a secret file, in a directory recorded before.
func TestLayoutIndex(t *testing.T) {
	d, home, ws := indexWorld(t)
	write(t, ws+"/src/code.go", "package x", 0o644)
	write(t, ws+"/src/deep/more.go", "package y", 0o644)
	write(t, ws+"/.git/config", "[core]\n", 0o644)
	write(t, ws+"/conf/app.json", `{"type": "settings"}`+strings.Repeat(" ", 600), 0o644)
	write(t, ws+"/notes.txt", "x", 0o644)
	index := filepath.Join(d, "state", "sandbox-index")
	sys := sysPlaces{passwd: filepath.Join(d, "none"), homes: filepath.Join(d, "none")}
	layout := func() (Layout, int) {
		s := layoutSpec(t, ws, home, index, sys, false) // a new process
		l := s.layout(ws)
		s.keepIndex()
		return l, s.ix.scans
	}
	if _, n := layout(); n == 0 {
		t.Fatal("nothing walked")
	}
	if fi, err := os.Stat(index); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("index: %v %v", fi, err)
	}
	if _, n := layout(); n != 0 {
		t.Errorf("%d directories read again though none changed", n)
	}

	write(t, ws+"/src/deep/id_rsa", "KEY", 0o600)
	l, n := layout()
	if !slices.Contains(l.Masked, ws+"/src/deep/id_rsa") {
		t.Errorf("a new secret file is not masked: %v", l.Masked)
	}
	if n != 1 {
		t.Errorf("%d directories read, want the one that changed", n)
	}

	write(t, ws+"/.git/config", "[remote \"o\"]\n\turl = https://u:ghp_abcdefghijklmnopqrstuvwxyz0123456789@example.com/r\n", 0o644)
	if l, _ := layout(); !unreadable(l, ws+"/.git/config") {
		t.Errorf("a configuration holding a credential is not masked: %v", l.Masked)
	}
	// A file rewritten in place: its directory does not change.
	key := `{"type": "service_account", "private_key_id": "0123", "private_key": "-----BEGIN PRIVATE KEY-----\nA` + strings.Repeat("A", 1200) + `\n-----END PRIVATE KEY-----\n"}`
	f, err := os.OpenFile(ws+"/conf/app.json", os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(key); err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	if l, _ := layout(); !slices.Contains(l.Masked, ws+"/conf/app.json") {
		t.Errorf("a file whose new content is a key is not masked: %v", l.Masked)
	}

	// notes.txt becomes another name of the key: its directory does not
	// change.
	if err := os.Remove(ws + "/notes.txt"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(home+"/.ssh/id_ed25519", ws+"/notes.txt"); err != nil {
		t.Fatal(err)
	}
	if l, _ := layout(); !slices.Contains(l.Masked, ws+"/notes.txt") {
		t.Errorf("a new name of a secret file is not masked: %v", l.Masked)
	}
	if err := os.Link(home+"/.ssh/id_ed25519", ws+"/src/code2.go"); err != nil {
		t.Fatal(err)
	}
	if l, _ := layout(); !slices.Contains(l.Masked, ws+"/src/code2.go") {
		t.Errorf("a second new name is not masked: %v", l.Masked)
	}
}

// An existing file that becomes another name of a secret, its directory
// unchanged (the secret replaced by a link to it), is masked.
func TestLayoutIndexRelink(t *testing.T) {
	d, home, ws := indexWorld(t)
	write(t, ws+"/plain.txt", "x", 0o644)
	index := filepath.Join(d, "sandbox-index")
	sys := sysPlaces{passwd: filepath.Join(d, "none"), homes: filepath.Join(d, "none")}
	s := layoutSpec(t, ws, home, index, sys, false)
	s.layout(ws)
	s.keepIndex()
	if err := os.Remove(home + "/.ssh/id_ed25519"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(ws+"/plain.txt", home+"/.ssh/id_ed25519"); err != nil {
		t.Fatal(err)
	}
	if l := layoutSpec(t, ws, home, index, sys, false).layout(ws); !slices.Contains(l.Masked, ws+"/plain.txt") {
		t.Errorf("another name of a secret file is not masked: %v", l.Masked)
	}
}

// A bind mount showing a hidden or masked place under another name is
// masked; one of a visible place is not.
func TestBindViews(t *testing.T) {
	d := t.TempDir()
	mi := filepath.Join(d, "mountinfo")
	write(t, mi, `22 1 8:1 / / rw - ext4 /dev/sda1 rw
30 22 8:1 /home/u/.ssh /mnt/keys rw - ext4 /dev/sda1 rw
31 22 8:1 /home/u/src /mnt/my\040src rw - ext4 /dev/sda1 rw
32 22 8:1 /srv/ws/.env /mnt/env rw - ext4 /dev/sda1 rw
33 22 0:50 / /data rw - tmpfs tmpfs rw
34 22 0:50 /sub /mnt/sub rw - tmpfs tmpfs rw
`, 0o644)
	got := bindViews(mi, []string{"/home/u/.ssh", "/home/u/.cache"}, []string{"/home/u/.cache/x"}, []string{"/srv/ws/.env", "/data/sub"})
	want := []string{"/mnt/keys", "/mnt/env", "/mnt/sub"}
	if !slices.Equal(got, want) {
		t.Errorf("bindViews = %q, want %q", got, want)
	}
}

// resolve names a path by where it is, links resolved on the way, also
// when its end does not exist yet.
func TestResolve(t *testing.T) {
	d := resolve(t.TempDir())
	write(t, d+"/real/sub/f", "x", 0o644)
	for _, l := range [][2]string{{"real", "link"}, {"real/sub", "real/sublink"}, {"missing", "dangling"}} {
		if err := os.Symlink(filepath.Join(d, l[0]), filepath.Join(d, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	for in, want := range map[string]string{
		"real/sub/f":          "real/sub/f",
		"real/sub/new/deeper": "real/sub/new/deeper",
		"link/sub/f":          "real/sub/f",
		"link/sub/new":        "real/sub/new",
		"real/sublink/f":      "real/sub/f",
		"link/sublink/new/x":  "real/sub/new/x",
		"dangling/x":          "dangling/x",
		"real/sub/f/below":    "real/sub/f/below",
		"real/../link/sub":    "real/sub",
	} {
		if got := resolve(d + "/" + in); got != filepath.Join(d, want) {
			t.Errorf("resolve(%s) = %s, want %s", in, got, filepath.Join(d, want))
		}
	}
}

// resolveBelow is resolve below a resolved directory, and says whether
// the path exists.
func TestResolveBelow(t *testing.T) {
	d := resolve(t.TempDir())
	write(t, d+"/real/sub/f", "x", 0o644)
	for _, l := range [][2]string{{"real", "link"}, {"missing", "dangling"}} {
		if err := os.Symlink(filepath.Join(d, l[0]), filepath.Join(d, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"real/sub/f", "real/sub/new", "link/sub/f", "link/new/x", "dangling", "dangling/x", "real/sub/f/below", "missing"} {
		got, ok := resolveBelow(d, filepath.FromSlash(rel))
		want := resolve(filepath.Join(d, rel))
		_, wantOK := exists(want)
		if got != want || ok != wantOK {
			t.Errorf("resolveBelow(%s) = %s %v, want %s %v", rel, got, ok, want, wantOK)
		}
	}
}

// The index keeps the trees walked last, not every tree ever walked.
func TestIndexBounded(t *testing.T) {
	d := t.TempDir()
	file := filepath.Join(d, "index")
	ix := newIndex()
	for i := range maxTrees + 4 {
		root := filepath.Join(d, "ws", strconv.Itoa(i))
		write(t, root+"/f", "x", 0o644)
		ix.walk(homeRules{}, root, nil)
		ix.Trees["home\x00"+root].Used = int64(i) // walked in this order
	}
	ix.save(file)
	got := loadIndex(file)
	if len(got.Trees) != maxTrees || got.Trees["home\x00"+filepath.Join(d, "ws", "0")] != nil || got.Trees["home\x00"+filepath.Join(d, "ws", strconv.Itoa(maxTrees+3))] == nil {
		t.Errorf("kept %d trees: %v", len(got.Trees), got.Trees)
	}
}
