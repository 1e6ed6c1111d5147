package textdiff

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// randomText builds a text of n lines drawn from a small alphabet, so that
// two texts share many lines; the last line may lack its newline.
func randomText(r *rand.Rand, n int) string {
	words := []string{"a", "b", "c", "d", "e", "ff", "g\r"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(words[r.IntN(len(words))])
		if i < n-1 || r.IntN(3) > 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// lcs is the length of the longest common subsequence of lines, by
// dynamic programming: the number of kept lines a shortest diff has.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func TestCompareIsAShortestEditScript(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 2000; n++ {
		a, b := randomText(r, r.IntN(30)), randomText(r, r.IntN(30))
		lines := Compare(a, b)
		var old, new strings.Builder
		kept := 0
		for _, l := range lines {
			if l.Kind != Insert {
				old.WriteString(l.Text)
			}
			if l.Kind != Delete {
				new.WriteString(l.Text)
			}
			if l.Kind == Equal {
				kept++
			}
		}
		if old.String() != a || new.String() != b {
			t.Fatalf("the diff does not rebuild its texts:\n%q\n%q", a, b)
		}
		if want := lcs(SplitLines(a), SplitLines(b)); kept != want {
			t.Fatalf("kept %d lines, the longest common part has %d:\n%q\n%q", kept, want, a, b)
		}
	}
}

func TestCoarseBeyondTheBound(t *testing.T) {
	var a, b strings.Builder
	for i := 0; i < 3*MaxEdits; i++ {
		a.WriteString("a" + strings.Repeat("x", i%7) + "\n")
		b.WriteString("b" + strings.Repeat("y", i%5) + "\n")
	}
	a.WriteString("same\n")
	b.WriteString("same\n")
	lines := Compare(a.String(), b.String())
	added, removed := Stats(lines)
	if added != 3*MaxEdits || removed != 3*MaxEdits || lines[len(lines)-1].Kind != Equal {
		t.Fatalf("added %d removed %d", added, removed)
	}
}

func TestHunkHeaders(t *testing.T) {
	for _, c := range []struct{ old, new, want string }{
		{"", "a\n", "--- x\n+++ y\n@@ -0,0 +1 @@\n+a\n"},
		{"a\n", "", "--- x\n+++ y\n@@ -1 +0,0 @@\n-a\n"},
		{"a\nb\n", "a\nb", "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n" + NoNewline + "\n"},
		{"1\n2\n3\n4\n5\n", "1\n2\n3\nX\n4\n5\n", "--- x\n+++ y\n@@ -2,4 +2,5 @@\n 2\n 3\n+X\n 4\n 5\n"},
	} {
		got := Unified("x", "y", c.old, c.new, 2)
		if got != c.want {
			t.Errorf("Unified(%q, %q) =\n%s\nwant\n%s", c.old, c.new, got, c.want)
		}
	}
	if Unified("x", "y", "same\n", "same\n", 3) != "" {
		t.Error("equal texts gave a diff")
	}
}

// TestUnifiedAppliesWithPatch holds the unified diffs against GNU patch:
// every one applies to the old text and gives the new one exactly.
func TestUnifiedAppliesWithPatch(t *testing.T) {
	patch := testenv.Tool(t, "patch")
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 60; n++ {
		a, b := randomText(r, r.IntN(40)), randomText(r, r.IntN(40))
		if a == b {
			continue
		}
		ctx := r.IntN(4)
		f := filepath.Join(dir, "f")
		if err := os.WriteFile(f, []byte(a), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(patch, "-s", "--binary", "-F0", f)
		cmd.Stdin = strings.NewReader(Unified("a/f", "b/f", a, b, ctx))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch refused the diff of\n%q\n%q: %v\n%s\n%s", a, b, err, out, Unified("a/f", "b/f", a, b, ctx))
		}
		got, _ := os.ReadFile(f)
		if string(got) != b {
			t.Fatalf("patched text %q, want %q", got, b)
		}
	}
}

func BenchmarkCompare10MB(b *testing.B) {
	var old strings.Builder
	for old.Len() < 10<<20 {
		old.WriteString("the quick brown fox jumps over the lazy dog 0123456789\n")
	}
	new := strings.Replace(old.String(), "fox", "cat", 50)
	b.SetBytes(int64(old.Len()))
	for b.Loop() {
		Compare(old.String(), new)
	}
}
