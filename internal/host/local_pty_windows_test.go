package host

import (
	"context"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/nb-cli/nb/internal/wintest"
)

// readUntil reads the terminal until its output matches re or the
// deadline passes, and returns what it read.
func readUntil(t *testing.T, term Terminal, re *regexp.Regexp, d time.Duration) string {
	t.Helper()
	var b strings.Builder
	got := make(chan struct{})
	go func() {
		defer close(got)
		buf := make([]byte, 4096)
		for {
			n, err := term.Read(buf)
			b.Write(buf[:n])
			if re.MatchString(stripANSI(b.String())) || err != nil {
				return
			}
		}
	}()
	select {
	case <-got:
	case <-time.After(d):
		t.Fatalf("no %s in the terminal within %v", re, d)
	}
	return stripANSI(b.String())
}

// skipOnWine skips ConPTY tests under Wine 8, which creates pseudo consoles
// but does not attach processes to them: their output goes to Wine's own
// console instead of the pseudo console's pipe.
func skipOnWine(t *testing.T) {
	if wintest.Wine() {
		t.Skip("Wine 8 ignores PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE: a ConPTY session's output never reaches its pipe")
	}
}

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Z]`)

func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

// An interactive cmd.exe on a pseudo console shows its prompt, runs what is
// typed, and Close ends it.
func TestWinConPTYCmd(t *testing.T) {
	skipOnWine(t)
	l := newWinLocal(t)
	dir := wintest.TempDir(t)
	term, err := l.StartPTY(context.Background(), &PTYCommand{Script: "cmd", Dir: dir, Rows: 24, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	out := readUntil(t, term, regexp.MustCompile(`[A-Za-z]:\\[^\r\n]*>`), 20*time.Second)
	if !strings.Contains(strings.ToLower(out), strings.ToLower(dir)) {
		t.Errorf("prompt does not show the directory %s: %q", dir, out)
	}
	if _, err := io.WriteString(term, "echo hel^lo-from-conpty\r"); err != nil {
		t.Fatal(err)
	}
	readUntil(t, term, regexp.MustCompile(`\nhello-from-conpty`), 20*time.Second)
	if err := term.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-term.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("cmd.exe still runs after Close")
	}
}

// A script that ends by itself reports its exit code.
func TestWinConPTYExitCode(t *testing.T) {
	skipOnWine(t)
	l := newWinLocal(t)
	term, err := l.StartPTY(context.Background(), &PTYCommand{Script: "echo bye& exit 7", Dir: wintest.TempDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	go io.Copy(io.Discard, term)
	select {
	case <-term.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the script did not end")
	}
	if term.ExitCode() != 7 {
		t.Errorf("exit code %d, want 7", term.ExitCode())
	}
}

// A session's program never writes into nb's own standard streams, even
// when they are pipes (nb mcp serve): Windows gives a child the parent's
// standard handles unless STARTF_USESTDHANDLES says otherwise.
func TestWinConPTYLeavesStdoutAlone(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	oldOut, _ := windows.GetStdHandle(windows.STD_OUTPUT_HANDLE)
	oldErr, _ := windows.GetStdHandle(windows.STD_ERROR_HANDLE)
	windows.SetStdHandle(windows.STD_OUTPUT_HANDLE, windows.Handle(w.Fd()))
	windows.SetStdHandle(windows.STD_ERROR_HANDLE, windows.Handle(w.Fd()))
	restore := func() {
		windows.SetStdHandle(windows.STD_OUTPUT_HANDLE, oldOut)
		windows.SetStdHandle(windows.STD_ERROR_HANDLE, oldErr)
	}
	defer restore()
	l := newWinLocal(t)
	term, err := l.StartPTY(context.Background(), &PTYCommand{Script: "cmd", Dir: wintest.TempDir(t), Rows: 24, Cols: 100})
	if err != nil {
		restore()
		t.Fatal(err)
	}
	go io.Copy(io.Discard, term)
	term.Write([]byte("echo leaked-into-stdout\r\n"))
	time.Sleep(2 * time.Second)
	term.Close()
	restore()
	w.Close()
	out, _ := io.ReadAll(r)
	if len(out) > 0 {
		t.Fatalf("the session wrote into nb's stdout: %q", out)
	}
}
