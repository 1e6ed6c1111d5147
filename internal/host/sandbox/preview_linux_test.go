package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"golang.org/x/sys/unix"
	"io"
	"io/fs"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/testenv"
)

// seedTree fills dir with files of every kind a command meets: nested
// directories, an executable, links (to a file, to a directory,
// dangling), unicode and blank-holding names, a large file.
func seedTree(t testing.TB, dir string) {
	t.Helper()
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 3<<20/17)
	files := map[string][]byte{
		"a.txt": []byte("alpha\n"), "b.txt": []byte("beta\r\n"), "d/e/f.txt": []byte("deep\n"),
		"d/g.txt": []byte("g\n"), "ünï cödé.txt": []byte("snow ☃\n"), "big.bin": big, "run.sh": []byte("#!/bin/sh\necho hi\n"),
		"keep/x": []byte("x\n"),
	}
	for p, c := range files {
		mustDo(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755))
		mustDo(t, os.WriteFile(filepath.Join(dir, p), c, 0o644))
	}
	mustDo(t, os.Chmod(filepath.Join(dir, "run.sh"), 0o755))
	mustDo(t, os.Symlink("a.txt", filepath.Join(dir, "to-a")))
	mustDo(t, os.Symlink("d", filepath.Join(dir, "to-d")))
	mustDo(t, os.Symlink("nowhere", filepath.Join(dir, "dangling")))
}

// opScript is a generated shell script of n file operations: create,
// modify, delete, rename (files and directories), chmod, symlink,
// mkdir, rm -r, a file replaced by a directory, a large write.
func opScript(r *rand.Rand, n int) string {
	names := []string{"a.txt", "b.txt", "d/g.txt", "d/e/f.txt", "ünï cödé.txt", "new.txt", "n/m/o.txt", "big.bin", "run.sh", "keep/x", "sp ace.txt"}
	dirs := []string{"d", "d/e", "n", "keep", "zz"}
	pick := func(s []string) string { return "'" + s[r.IntN(len(s))] + "'" }
	var b strings.Builder
	b.WriteString("set +e\n")
	for i := 0; i < n; i++ {
		switch r.IntN(12) {
		case 0:
			fmt.Fprintf(&b, "mkdir -p \"$(dirname %s)\" && printf 'made %d\\n' > %s\n", pick(names), i, pick(names))
		case 1:
			fmt.Fprintf(&b, "printf 'more %d\\n' >> %s\n", i, pick(names))
		case 2:
			fmt.Fprintf(&b, "rm -f %s\n", pick(names))
		case 3:
			fmt.Fprintf(&b, "mv %s %s 2>/dev/null\n", pick(names), pick(names))
		case 4:
			fmt.Fprintf(&b, "chmod %o %s 2>/dev/null\n", []int{0o600, 0o755, 0o640, 0o444}[r.IntN(4)], pick(names))
		case 5:
			fmt.Fprintf(&b, "ln -sfn %s %s 2>/dev/null\n", pick(names), "'link"+fmt.Sprint(r.IntN(3))+"'")
		case 6:
			fmt.Fprintf(&b, "mkdir -p %s/sub%d\n", pick(dirs), r.IntN(3))
		case 7:
			fmt.Fprintf(&b, "rm -rf %s\n", pick(dirs))
		case 8:
			fmt.Fprintf(&b, "mv %s 'moved%d' 2>/dev/null\n", pick(dirs), r.IntN(2))
		case 9:
			fmt.Fprintf(&b, "sed -i 's/a/A/g' %s 2>/dev/null\n", pick(names))
		case 10:
			fmt.Fprintf(&b, "head -c %d /dev/zero | tr '\\0' 'x' > %s\n", 1<<20+r.IntN(1<<20), pick(names))
		case 11:
			fmt.Fprintf(&b, "rm -rf 'keep' && mkdir -p 'keep/x' && echo in > 'keep/x/y'\n")
		}
	}
	b.WriteString("exit 0\n")
	return b.String()
}

// snapshotTree is every entry below dir: type, mode and bytes.
func snapshotTree(t testing.TB, dir string) map[string]changes.State {
	fsys, err := changes.Open(dir)
	mustDo(t, err)
	defer fsys.Close()
	out := map[string]changes.State{}
	mustDo(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		s, err := fsys.Read(p)
		mustDo(t, err)
		out[p[len(dir):]] = s
		return nil
	}))
	return out
}

func diffTrees(got, want map[string]changes.State) []string {
	var out []string
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			out = append(out, k+": missing")
			continue
		}
		if g.Type != w.Type || g.Mode != w.Mode || !bytes.Equal(g.Data, w.Data) {
			out = append(out, fmt.Sprintf("%s: %s %o (%d bytes), want %s %o (%d bytes)", k, g.Type, g.Mode, len(g.Data), w.Type, w.Mode, len(w.Data)))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			out = append(out, k+": extra")
		}
	}
	return out
}

func previewHost(t testing.TB, ws string) *Host {
	return previewHostWith(t, ws, MechanismNamespaces)
}

// previewMechanisms are the mechanisms a preview runs on: nb's own view
// (what auto picks) and bubblewrap's.
var previewMechanisms = []string{MechanismNamespaces, MechanismBwrap}

func previewHostWith(t testing.TB, ws, mech string) *Host {
	if mech == MechanismBwrap {
		testenv.Tool(t, "bwrap")
	}
	h, err := New(Options{Mechanism: mech, LaunchDir: ws, Home: t.TempDir(), Shell: "bash", Env: os.Environ()})
	mustDo(t, err)
	t.Cleanup(func() { h.Close() })
	if err := h.previewable(); err != nil {
		testenv.Missing(t, err.Error())
	}
	return h
}

// The preview applied gives the tree the command gives when run directly,
// byte for byte with modes, links and directories, over generated
// sequences of file operations; and nothing reaches the disk before the
// changes are applied.
func TestPreviewAppliedEqualsDirectRun(t *testing.T) {
	for _, mech := range previewMechanisms {
		t.Run(mech, func(t *testing.T) {
			testenv.Tool(t, "bash")
			root := t.TempDir()
			ws := filepath.Join(root, "ws")
			mustDo(t, os.Mkdir(ws, 0o755))
			h := previewHostWith(t, ws, mech)
			r := rand.New(rand.NewPCG(7, 31))
			for round := 0; round < 16; round++ {
				direct := filepath.Join(root, fmt.Sprintf("direct%d", round))
				mustDo(t, os.Mkdir(direct, 0o755))
				for _, d := range []string{ws, direct} {
					mustDo(t, os.RemoveAll(d))
					mustDo(t, os.Mkdir(d, 0o755))
					seedTree(t, d)
				}
				script := opScript(r, 16)
				// The preview runs without capabilities: so does the direct run
				// (as root it would otherwise override permissions).
				argv := []string{"bash", "-c", script}
				if os.Geteuid() == 0 {
					argv = append([]string{testenv.Tool(t, "setpriv"), "--bounding-set=-all", "--inh-caps=-all", "--ambient-caps=-all"}, argv...)
				}
				cmd := exec.Command(argv[0], argv[1:]...)
				cmd.Dir = direct
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("direct run: %v\n%s", err, out)
				}
				want := snapshotTree(t, direct)
				before := snapshotTree(t, ws)

				var stderr bytes.Buffer
				ov, ex, err := h.Preview(context.Background(), &host.Command{Script: script, Dir: ws, Stdout: &stderr, Stderr: &stderr, Timeout: time.Minute}, changes.Places{})
				mustDo(t, err)
				if ex.Code != 0 || ex.Sandboxed {
					t.Fatalf("preview exit %d sandboxed=%v\n%s\n%s", ex.Code, ex.Sandboxed, stderr.String(), script)
				}
				if d := diffTrees(snapshotTree(t, ws), before); len(d) > 0 {
					t.Fatalf("the preview changed the disk: %v", d)
				}
				set, err := changes.FromOverlay(ov.Uppers[h.layout.Writable[0]], ws)
				ov.Close()
				mustDo(t, err)
				fsys, err := changes.Open(ws)
				mustDo(t, err)
				mustDo(t, changes.Apply(fsys, set))
				fsys.Close()
				if d := diffTrees(snapshotTree(t, ws), want); len(d) > 0 {
					t.Fatalf("round %d: the applied preview differs from the direct run:\n%s\nscript:\n%s", round, strings.Join(d, "\n"), script)
				}
			}
		})
	}
}

// A file changed on disk between the preview and the approval is a
// conflict naming it, and nothing is applied.
func TestPreviewConflict(t *testing.T) {
	ws := t.TempDir()
	seedTree(t, ws)
	h := previewHost(t, ws)
	ov, _, err := h.Preview(context.Background(), &host.Command{Script: "sed -i s/alpha/ALPHA/ a.txt && rm b.txt", Dir: ws, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Timeout: time.Minute}, changes.Places{})
	mustDo(t, err)
	defer ov.Close()
	set, err := changes.FromOverlay(ov.Uppers[h.layout.Writable[0]], ws)
	mustDo(t, err)
	mustDo(t, os.WriteFile(filepath.Join(ws, "b.txt"), []byte("someone else\n"), 0o644))
	fsys, _ := changes.Open(ws)
	defer fsys.Close()
	c, ok := changes.IsConflict(changes.Apply(fsys, set))
	if !ok || c.Path != filepath.Join(ws, "b.txt") {
		t.Fatalf("apply after a change on disk: %v", c)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(got) != "alpha\n" {
		t.Errorf("a.txt applied despite the conflict: %q", got)
	}
}

// A command previewed cannot reach the network nor see nb's processes:
// the preview is the sandbox's, its writes an overlay.
func TestPreviewContained(t *testing.T) {
	for _, mech := range previewMechanisms {
		t.Run(mech, func(t *testing.T) {
			ws := t.TempDir()
			h := previewHostWith(t, ws, mech)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			mustDo(t, err)
			defer ln.Close()
			reached := make(chan struct{}, 1)
			go func() {
				if c, err := ln.Accept(); err == nil {
					reached <- struct{}{}
					c.Close()
				}
			}()
			port := ln.Addr().(*net.TCPAddr).Port
			script := fmt.Sprintf("echo hi > /dev/tcp/127.0.0.1/%d; kill -0 %d && echo SAW-HOST-PROCESS; ls /proc/%d >/dev/null 2>&1 && echo SAW-PROC; echo done > out.txt", port, os.Getpid(), os.Getpid())
			var out bytes.Buffer
			ov, _, err := h.Preview(context.Background(), &host.Command{Script: script, Dir: ws, Stdout: &out, Stderr: &out, Timeout: time.Minute}, changes.Places{})
			mustDo(t, err)
			defer ov.Close()
			select {
			case <-reached:
				t.Error("the preview reached a listener on the host")
			case <-time.After(200 * time.Millisecond):
			}
			if strings.Contains(out.String(), "SAW-") {
				t.Errorf("the preview saw a host process: %s", out.String())
			}
			if _, err := os.Stat(filepath.Join(ws, "out.txt")); err == nil {
				t.Error("the preview wrote to the disk")
			}
			if _, err := os.Stat(filepath.Join(ov.Uppers[h.layout.Writable[0]], "out.txt")); err != nil {
				t.Errorf("the write is not in the overlay: %v", err)
			}
		})
	}
}

func mustDo(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkPreview is the cost of a previewed command against running it
// directly: the preview in the sandbox's overlay, reading its changes and
// applying them, for sed -i on a 10 MB file and for a command touching
// 1,000 files (goal: under twice the direct run), with the workspace and
// the overlay on a disk's file system (/var/tmp) and on a tmpfs
// (/dev/shm), where the direct run is several times faster.
func BenchmarkPreview(b *testing.B) {
	testenv.Tool(b, "bash")
	for _, fs := range []struct{ name, dir string }{{"disk", "/var/tmp"}, {"tmpfs", "/dev/shm"}} {
		var st unix.Statfs_t
		if err := unix.Statfs(fs.dir, &st); err != nil || (st.Type == unix.TMPFS_MAGIC) != (fs.name == "tmpfs") {
			b.Logf("%s: %s is not one here", fs.name, fs.dir)
			continue
		}
		b.Run(fs.name, func(b *testing.B) {
			b.Setenv("TMPDIR", fs.dir)
			benchPreview(b)
		})
	}
}

func benchPreview(b *testing.B) {
	for _, c := range []struct {
		name, script string
		seed         func(dir string)
	}{
		{"sed-10MB", "sed -i 's/fox/cat/g' big.txt", func(dir string) {
			mustDo(b, os.WriteFile(filepath.Join(dir, "big.txt"), bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog\n"), 10<<20/43), 0o644))
		}},
		{"1000-files", "sed -i 's/a/b/' f*.txt", func(dir string) {
			for i := 0; i < 1000; i++ {
				mustDo(b, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), []byte("a line of text\n"), 0o644))
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			direct, ws := b.TempDir(), b.TempDir()
			c.seed(direct)
			c.seed(ws)
			h := previewHost(b, ws)
			var directTotal, previewTotal time.Duration
			// where the preview's time goes: the run in the view (the
			// overlay helper, bubblewrap, the command and its copy-up),
			// reading the changes, applying them, removing the overlay
			var phase [4]time.Duration
			for b.Loop() {
				start := time.Now()
				cmd := exec.Command("bash", "-c", c.script)
				cmd.Dir = direct
				mustDo(b, cmd.Run())
				directTotal += time.Since(start)

				start = time.Now()
				ov, ex, err := h.Preview(context.Background(), &host.Command{Script: c.script, Dir: ws, Stdout: io.Discard, Stderr: io.Discard, Timeout: time.Minute}, changes.Places{})
				mustDo(b, err)
				if ex.Code != 0 {
					b.Fatalf("preview exit %d", ex.Code)
				}
				t1 := time.Now()
				set, err := changes.FromOverlay(ov.Uppers[h.layout.Writable[0]], ws)
				mustDo(b, err)
				t2 := time.Now()
				fsys, err := changes.Open(ws)
				mustDo(b, err)
				mustDo(b, changes.Apply(fsys, set))
				fsys.Close()
				t3 := time.Now()
				ov.Close()
				end := time.Now()
				// the overlay is removed in the background, off the
				// user's way: not timed, but not left to the next run
				h.background.Wait()
				previewTotal += end.Sub(start)
				for i, d := range []time.Duration{t1.Sub(start), t2.Sub(t1), t3.Sub(t2), end.Sub(t3)} {
					phase[i] += d
				}
			}
			b.ReportMetric(float64(directTotal.Milliseconds())/float64(b.N), "direct-ms")
			b.ReportMetric(float64(previewTotal.Milliseconds())/float64(b.N), "preview-ms")
			b.ReportMetric(float64(previewTotal)/float64(directTotal), "x-direct")
			for i, unit := range []string{"run-ms", "read-ms", "apply-ms", "close-ms"} {
				b.ReportMetric(float64(phase[i].Milliseconds())/float64(b.N), unit)
			}
		})
	}
}

// A command that writes outside the workspace, in a place it names, is
// previewed with that place overlaid too: applied, the preview gives
// both trees the direct run gives, over generated file operations in
// each; nothing reaches either before.
func TestPreviewOtherPlaceEqualsDirectRun(t *testing.T) {
	testenv.Tool(t, "bash")
	root := t.TempDir()
	ws, notes := filepath.Join(root, "ws"), filepath.Join(root, "notes")
	mustDo(t, os.Mkdir(ws, 0o755))
	h := previewHost(t, ws)
	r := rand.New(rand.NewPCG(11, 5))
	for round := 0; round < 6; round++ {
		direct := filepath.Join(root, fmt.Sprintf("direct%d", round))
		for _, d := range []string{ws, notes, filepath.Join(direct, "ws"), filepath.Join(direct, "notes")} {
			mustDo(t, os.RemoveAll(d))
			mustDo(t, os.MkdirAll(d, 0o755))
			seedTree(t, d)
		}
		script := "(cd ../notes && " + strings.TrimSuffix(opScript(r, 12), "exit 0\n") + ")\n" + opScript(r, 8)
		argv := []string{"bash", "-c", script}
		if os.Geteuid() == 0 {
			argv = append([]string{testenv.Tool(t, "setpriv"), "--bounding-set=-all", "--inh-caps=-all", "--ambient-caps=-all"}, argv...)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = filepath.Join(direct, "ws")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("direct run: %v\n%s", err, out)
		}
		beforeWS, beforeNotes := snapshotTree(t, ws), snapshotTree(t, notes)

		var out bytes.Buffer
		places := changes.Places{Named: []string{filepath.Join(notes, "a.txt")}}
		ov, ex, err := h.Preview(context.Background(), &host.Command{Script: script, Dir: ws, Stdout: &out, Stderr: &out, Timeout: time.Minute}, places)
		mustDo(t, err)
		if ex.Code != 0 || ex.Sandboxed || len(ov.Skipped) > 0 {
			t.Fatalf("preview exit %d sandboxed=%v skipped %q\n%s\n%s", ex.Code, ex.Sandboxed, ov.Skipped, out.String(), script)
		}
		if d := append(diffTrees(snapshotTree(t, ws), beforeWS), diffTrees(snapshotTree(t, notes), beforeNotes)...); len(d) > 0 {
			t.Fatalf("the preview changed the disk: %v", d)
		}
		for _, tree := range []string{ws, notes} {
			upper, ok := ov.Uppers[tree]
			if !ok {
				t.Fatalf("%s was not overlaid: %v", tree, ov.Uppers)
			}
			set, err := changes.FromOverlay(upper, tree)
			mustDo(t, err)
			fsys, err := changes.Open(tree)
			mustDo(t, err)
			mustDo(t, changes.Apply(fsys, set))
			fsys.Close()
			if d := diffTrees(snapshotTree(t, tree), snapshotTree(t, filepath.Join(direct, filepath.Base(tree)))); len(d) > 0 {
				t.Fatalf("round %d: %s: the applied preview differs from the direct run:\n%s\nscript:\n%s", round, tree, strings.Join(d, "\n"), script)
			}
		}
		ov.Close()
	}
}

// A place the command names that may not be overlaid — refused by the
// policy, hidden as a secret place, holding the workspace — stays as the
// sandbox makes it, and the preview says why: a write there fails,
// nothing reaches the disk.
func TestPreviewRefusedPlace(t *testing.T) {
	testenv.Tool(t, "bash")
	root := t.TempDir()
	ws, other := filepath.Join(root, "ws"), filepath.Join(root, "other")
	mustDo(t, os.Mkdir(ws, 0o755))
	mustDo(t, os.Mkdir(other, 0o755))
	h := previewHost(t, ws)
	secret := filepath.Join(h.layout.Hidden[0], "x")
	// a link to a secret place: the directory it leads to is hidden
	mustDo(t, os.MkdirAll(h.layout.Hidden[0], 0o700))
	mustDo(t, os.Symlink(h.layout.Hidden[0], filepath.Join(root, "to-secret")))
	places := changes.Places{
		Named:  []string{filepath.Join(other, "f.txt"), secret, filepath.Join(root, "new.txt"), filepath.Join(root, "to-secret", "y")},
		Refuse: func(dir string) string { return map[string]string{other: "a system path"}[dir] },
	}
	ov, ex, err := h.Preview(context.Background(), &host.Command{Script: "echo x > ../other/f.txt", Dir: ws, Stdout: io.Discard, Stderr: io.Discard, Timeout: time.Minute}, places)
	mustDo(t, err)
	defer ov.Close()
	if ex.Code == 0 {
		t.Errorf("a write into a refused place: exit %d", ex.Code)
	}
	want := []string{filepath.Join(other, "f.txt") + ": a system path", secret + ": it is hidden", filepath.Join(root, "new.txt") + ": " + root + " holds the workspace",
		filepath.Join(root, "to-secret", "y") + ": " + h.layout.Hidden[0] + " is hidden"}
	if len(ov.Skipped) != len(want) {
		t.Fatalf("skipped %q, want %q", ov.Skipped, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(ov.Skipped[i], w) {
			t.Errorf("skipped %q, want %q", ov.Skipped[i], w)
		}
	}
	if _, err := os.Stat(filepath.Join(other, "f.txt")); err == nil {
		t.Error("the preview wrote into the refused place")
	}
}

// When the overlay helper fails (the kernel refuses an overlay on a
// place's file system) the command never ran: there is no preview, and
// the error says why, never a result with its exit status.
func TestPreviewHelperFailure(t *testing.T) {
	for _, helper := range []string{"preview", "sandbox"} { // the overlay helper's, nb's view's
		ws := t.TempDir()
		h := previewHost(t, ws)
		fake := filepath.Join(t.TempDir(), "nb")
		mustDo(t, os.WriteFile(fake, []byte("#!/bin/sh\necho 'nb: "+helper+": mount an overlay on /x: invalid argument' >&2\nexit 126\n"), 0o755))
		h.self = fake
		ov, _, err := h.Preview(context.Background(), &host.Command{Script: "echo x > out.txt", Dir: ws, Stdout: io.Discard, Stderr: io.Discard, Timeout: time.Minute}, changes.Places{})
		if ov != nil || !errors.Is(err, changes.ErrNoPreview) || !strings.Contains(err.Error(), "mount an overlay on /x: invalid argument") {
			t.Fatalf("a failed %s helper: overlay %v, error %v", helper, ov, err)
		}
	}
}

// A preview's overlay is removed once closed, off the user's way, and
// the host waits for that before it ends: nothing of it is left, the
// kernel's work directories (left without permissions) included.
func TestPreviewOverlayRemoved(t *testing.T) {
	testenv.Tool(t, "bash")
	ws := t.TempDir()
	h := previewHost(t, ws)
	ov, ex, err := h.Preview(context.Background(), &host.Command{Script: "for i in $(seq 200); do echo x > f$i; done", Dir: ws, Stdout: io.Discard, Stderr: io.Discard, Timeout: time.Minute}, changes.Places{})
	mustDo(t, err)
	if ex.Code != 0 {
		t.Fatalf("preview exit %d", ex.Code)
	}
	if n, _ := filepath.Glob(filepath.Join(ov.Uppers[ws], "f*")); len(n) != 200 {
		t.Fatalf("%d files in the overlay", len(n))
	}
	mustDo(t, ov.Close())
	h.background.Wait()
	if _, err := os.Lstat(ov.Dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the overlay is left after it was closed: %v", err)
	}
	if n, _ := filepath.Glob(filepath.Join(ws, "f*")); len(n) != 0 {
		t.Errorf("the preview reached the workspace: %d files", len(n))
	}
}
