package approval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/tool"
)

// editPending is an edit of /p/main.go from before to after, as edit_file
// proposes it.
func editPending(before, after string) *agent.Pending {
	d := &policy.Decision{Decision: policy.Ask, Safety: policy.Unknown, Display: "edit: main.go", Warn: true, WarnAt: []int{4},
		DefaultAnswer: policy.No, Category: policy.CatWrite, Reasons: []string{"writes a file"}, Full: "edit /p/main.go"}
	set := &changes.Set{Files: []changes.File{{Path: "/p/main.go",
		Before: changes.State{Type: changes.Regular, Mode: 0o644, Data: []byte(before)},
		After:  changes.State{Type: changes.Regular, Mode: 0o644, Data: []byte(after)}}}}
	return &agent.Pending{Call: &tool.Call{ID: "c1", Name: "edit_file"}, Decision: d, Cwd: "/p", Changes: set}
}

func numberedLines(n int, change int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i == change {
			fmt.Fprintf(&b, "changed line %d\n", i)
			continue
		}
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// The prompt of an edit shows its diff, coloured: the removed line red,
// the added one green, the hunk header; one keypress approves it.
func TestEditPromptShowsColouredDiff(t *testing.T) {
	p, scr := prompter("y", 80)
	p.Palette = style.Palette{Color: true}
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{editPending("a\nold\nb\n", "a\nnew\nb\n")})
	if err != nil || !got[0].Approved {
		t.Fatalf("got %+v, %v", got, err)
	}
	raw := scr.Raw()
	for _, want := range []string{"modified main.go", "(+1 -1)", "@@ -1,3 +1,3 @@", "\x1b[31m-old", "\x1b[32m+new", " a"} {
		if !strings.Contains(raw, want) {
			t.Errorf("prompt lacks %q:\n%q", want, raw)
		}
	}
}

// A long diff is bounded: the first page, a line counting the rest; each
// ? shows the next page until all of it was on the screen.
func TestEditPromptPagesWithQuestionMark(t *testing.T) {
	before := numberedLines(200, 0)
	var after strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&after, "line %d changed\n", i)
	}
	p, scr := prompter("??n\r", 100)
	defer scr.Close()
	if _, err := p.Approve(ctxT(t), []*agent.Pending{editPending(before, after.String())}); err != nil {
		t.Fatal(err)
	}
	raw := scr.Raw()
	// 30 rows: the prompt shows 15 of the 402 lines, each ? 27 more
	if !strings.Contains(raw, "-line 67") || strings.Contains(raw, "-line 68") {
		t.Errorf("first page and two more reach too far or not far enough:\n%s", raw)
	}
	for _, want := range []string{"… 387 more lines of the diff: ? shows more", "… 360 more lines", "… 333 more lines", "[?] more diff"} {
		if !strings.Contains(raw, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	p, scr2 := prompter(strings.Repeat("?", 20)+"n\r", 100)
	defer scr2.Close()
	if _, err := p.Approve(ctxT(t), []*agent.Pending{editPending(before, after.String())}); err != nil {
		t.Fatal(err)
	}
	// past the end of the diff, ? shows the whole call as it does for
	// any other
	if raw := scr2.Raw(); !strings.Contains(raw, "+line 200 changed") || !strings.Contains(raw, "content:") || !strings.Contains(raw, "edit /p/main.go") {
		t.Errorf("paging to the end did not show the last line, then the call")
	}
}

// What cannot be a diff is said: a mode change, a link, binary content;
// control characters in the text are escaped.
func TestDiffLinesNotesAndEscapes(t *testing.T) {
	set := &changes.Set{Files: []changes.File{
		{Path: "/p/run.sh", Before: changes.State{Type: changes.Regular, Mode: 0o644, Data: []byte("x\n")}, After: changes.State{Type: changes.Regular, Mode: 0o755, Data: []byte("x\n")}},
		{Path: "/p/l", After: changes.State{Type: changes.Symlink, Data: []byte("/etc/passwd")}},
		{Path: "/p/b.bin", After: changes.State{Type: changes.Regular, Data: []byte{0, 1, 2}}},
		{Path: "/p/e.txt", Before: changes.State{Type: changes.Regular, Data: []byte("a\n")}, After: changes.State{Type: changes.Regular, Data: []byte("a\x1b[2J\n\tb")}},
	}}
	got := strings.Join(DiffLines(style.Palette{}, set, "/p", 80), "\n")
	for _, want := range []string{"modified run.sh", "(mode 0644 → 0755)", "created l", "(link to /etc/passwd)", "created b.bin", "binary, 0 → 3 bytes", `+a\x1b[2J`, "+    b", `\ No newline at end of file`} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %q:\n%s", want, got)
		}
	}
}
