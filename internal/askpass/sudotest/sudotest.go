// Package sudotest builds, for one test, a world with a real sudo that the
// test throws away: a private mount namespace in which /etc/passwd,
// /etc/group, /etc/shadow and /etc/sudoers are files of the test, defining
// an unprivileged user with a known password and the test's sudo rules.
// Commands run in it as that user, or as root (an sshd whose sessions
// then meet the same sudo). The machine's own /etc is never written. It
// needs root (mount namespaces, setpriv), util-linux and sudo; without
// them the test fails in CI and is skipped elsewhere (package testenv).
package sudotest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/proctest"
	"github.com/nb-cli/nb/internal/testenv"
)

// User is the world's unprivileged user.
const User = "nbsudo"

// The passwords a world's user may have, with their shadow hashes
// (openssl passwd -6).
const (
	Password      = "correct horse battery staple"
	OtherPassword = "a different one for host b"
)

var hashes = map[string]string{
	Password:      "$6$nbsudoAAA$/fjs1kokQlAG7ER0tPB7wJBOulbbzX.6S4F9o0FEUeVO/yxrsrOJPKUzUWGSYJSdN1rRZohOKRFXbPWFJUbv30",
	OtherPassword: "$6$nbsudoBBB$wzTcZaDgrMmENKpABmBVl5nngg3oag/v10lmYruqsUu0AL/..iY39kiNA3q1YvilPoTMUDOKGFW5Ny3zlDY2E1",
}

// Options shape a world.
type Options struct {
	// Password is the user's password: Password (the default) or
	// OtherPassword.
	Password string
	// Sudoers are the rules after the defaults, "%u" standing for the
	// user; none means "%u ALL=(ALL) ALL" (every command, with the
	// password) and "%u ALL=(ALL) NOPASSWD: /usr/bin/id".
	Sudoers []string
}

// World is a running test's sudo world.
type World struct {
	// Dir is a directory the user can read: the user's home and the
	// programs a test runs in the world go here.
	Dir  string
	Home string
	// UID and GID are the user's.
	UID, GID int
	// Password is the user's password.
	Password string
	// etc holds the world's passwd, group, shadow, sudoers and sudo's
	// time stamps; only root reads it.
	etc string
}

// New builds a world for t; it is removed when t ends.
func New(t testing.TB, o Options) *World {
	t.Helper()
	if os.Geteuid() != 0 {
		testenv.Missing(t, "real sudo tests need root (a private mount namespace, setpriv)")
	}
	for _, tool := range []string{"sudo", "unshare", "setpriv"} {
		testenv.Tool(t, tool)
	}
	if o.Password == "" {
		o.Password = Password
	}
	hash, ok := hashes[o.Password]
	if !ok {
		t.Fatalf("sudotest: no hash for password %q", o.Password)
	}
	if len(o.Sudoers) == 0 {
		o.Sudoers = []string{"%u ALL=(ALL) ALL", "%u ALL=(ALL) NOPASSWD: /usr/bin/id"}
	}
	dir, err := os.MkdirTemp("", "nb-sudotest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w := &World{Dir: dir, Home: filepath.Join(dir, "home"), Password: o.Password, etc: filepath.Join(dir, "etc")}
	w.UID, w.GID = freeID(t)
	if err := os.Mkdir(w.etc, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(w.Home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(w.Home, w.UID, w.GID); err != nil {
		t.Fatal(err)
	}
	w.write(t, "passwd", "/etc/passwd", fmt.Sprintf("%s:x:%d:%d:nb sudo test:%s:/bin/bash\n", User, w.UID, w.GID, w.Home), 0o644)
	w.write(t, "group", "/etc/group", fmt.Sprintf("%s:x:%d:\n", User, w.GID), 0o644)
	w.write(t, "shadow", "/etc/shadow", User+":"+hash+":19000:0:99999:7:::\n", 0o640)
	var sudoers strings.Builder
	fmt.Fprintf(&sudoers, "Defaults env_reset\nDefaults !lecture\nDefaults !syslog\nDefaults timestampdir=%s\nroot ALL=(ALL:ALL) ALL\n", filepath.Join(w.etc, "ts"))
	for _, r := range o.Sudoers {
		sudoers.WriteString(strings.ReplaceAll(r, "%u", User) + "\n")
	}
	w.write(t, "sudoers", "", sudoers.String(), 0o440)
	return w
}

// write makes the world's file name: the machine's file base (if any)
// followed by extra.
func (w *World) write(t testing.TB, name, base, extra string, mode fs.FileMode) {
	t.Helper()
	var data []byte
	if base != "" {
		b, err := os.ReadFile(base)
		if err != nil {
			t.Fatal(err)
		}
		data = b
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n')
		}
	}
	data = append(data, extra...)
	p := filepath.Join(w.etc, name)
	if err := os.WriteFile(p, data, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// freeID picks a user and group id the machine does not use.
func freeID(t testing.TB) (int, int) {
	used := map[string]bool{}
	for _, f := range []string{"/etc/passwd", "/etc/group"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if fields := strings.Split(sc.Text(), ":"); len(fields) > 2 {
				used[fields[2]] = true
			}
		}
	}
	for id := 61000; id < 62000; id++ {
		if !used[strconv.Itoa(id)] {
			return id, id
		}
	}
	t.Fatal("sudotest: no free user id")
	return 0, 0
}

// enter is the shell script that makes the world's mounts in a new mount
// namespace and runs the command, as the user or as root.
const enter = `set -e
etc=$1 who=$2
shift 2
for f in passwd group shadow sudoers; do mount --bind "$etc/$f" "/etc/$f"; done
if [ "$who" = root ]; then exec "$@"; fi
exec setpriv --reuid="$who" --regid="$who" --clear-groups -- "$@"
`

func (w *World) command(who string, argv []string) *exec.Cmd {
	args := append([]string{"--mount", "--propagation", "private", "--", "/bin/sh", "-c", enter, "sh", w.etc, who}, argv...)
	cmd := exec.Command("unshare", args...)
	cmd.Dir = w.Dir
	cmd.Env = w.Env()
	return cmd
}

// Command runs argv in the world as the user (with Env; set cmd.Env to
// change it).
func (w *World) Command(argv ...string) *exec.Cmd {
	return w.command(strconv.Itoa(w.UID), argv)
}

// RootCommand runs argv in the world as root.
func (w *World) RootCommand(argv ...string) *exec.Cmd {
	return w.command("root", argv)
}

// Env is a plain environment of the user, with extra after it.
func (w *World) Env(extra ...string) []string {
	env := []string{"HOME=" + w.Home, "USER=" + User, "LOGNAME=" + User, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "TMPDIR=" + w.Tmp()}
	if v, ok := os.LookupEnv(proctest.EnvMarker); ok {
		env = append(env, proctest.EnvMarker+"="+v)
	}
	return append(env, extra...)
}

// Tmp is the user's temporary directory, inside Dir.
func (w *World) Tmp() string { return filepath.Join(w.Dir, "tmp") }

// Chown gives the user path (and what is below it).
func (w *World) Chown(t testing.TB, path string) {
	t.Helper()
	err := filepath.WalkDir(path, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, w.UID, w.GID)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Install copies the program at src into Dir, where the user may run it,
// and returns its path there.
func (w *World) Install(t testing.TB, src string) string {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	dst := filepath.Join(w.Dir, filepath.Base(src))
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// MakeTmp creates Tmp for the user (Env points TMPDIR at it).
func (w *World) MakeTmp(t testing.TB) {
	t.Helper()
	if err := os.MkdirAll(w.Tmp(), 0o700); err != nil {
		t.Fatal(err)
	}
	w.Chown(t, w.Tmp())
}

// Watch looks through every process's command line and environment, as
// root, for secret until the returned function is called, which says
// where it was seen ("pid N cmdline" …), if anywhere.
func Watch(secret string) (stop func() []string) {
	done := make(chan struct{})
	var mu sync.Mutex
	var seen []string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			hits := scanProcs([]byte(secret))
			mu.Lock()
			for _, h := range hits {
				if !contains(seen, h) {
					seen = append(seen, h)
				}
			}
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() []string {
		close(done)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func scanProcs(secret []byte) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var hits []string
	for _, d := range dirs {
		for _, f := range []string{"cmdline", "environ"} {
			data, err := os.ReadFile(filepath.Join(d, f))
			if err == nil && bytes.Contains(data, secret) {
				comm, _ := os.ReadFile(filepath.Join(d, "comm"))
				hits = append(hits, fmt.Sprintf("%s %s (%s)", d, f, strings.TrimSpace(string(comm))))
			}
		}
	}
	return hits
}

// FilesHolding lists the files below dirs whose content holds secret.
func FilesHolding(t testing.TB, secret string, dirs ...string) []string {
	t.Helper()
	var hits []string
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			data, err := os.ReadFile(p)
			if err == nil && bytes.Contains(data, []byte(secret)) {
				hits = append(hits, p)
			}
			return nil
		})
	}
	return hits
}
