package audit

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestWriteConcurrentLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "audit.jsonl")
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			code := i
			if err := l.Write(Entry{Time: time.Unix(int64(i), 0).UTC(), Kind: "run", Cwd: "/w", Command: "echo 'a\nb'", Decision: "allow", DecidedBy: "safe-list", ExitCode: &code, DurationMs: 3}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	seen := map[int]bool{}
	for sc.Scan() {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		if e.ExitCode == nil || e.Command != "echo 'a\nb'" || e.DecidedBy != "safe-list" {
			t.Fatalf("bad entry %+v", e)
		}
		seen[*e.ExitCode] = true
		n++
	}
	if n != 20 || len(seen) != 20 {
		t.Fatalf("got %d lines, %d distinct", n, len(seen))
	}
	if err := l.Write(Entry{}); err == nil {
		t.Fatal("write after close succeeded")
	}
}

func TestAppendsAcrossOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	for i := 0; i < 2; i++ {
		l, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Write(Entry{Kind: "decision", Decision: "ask"}); err != nil {
			t.Fatal(err)
		}
		l.Close()
	}
	data, _ := os.ReadFile(path)
	if got := len(splitLines(data)); got != 2 {
		t.Fatalf("%d lines, want 2", got)
	}
}

func splitLines(b []byte) []string {
	var out []string
	start := 0
	for i, c := range b {
		if c == '\n' {
			out = append(out, string(b[start:i]))
			start = i + 1
		}
	}
	return out
}
