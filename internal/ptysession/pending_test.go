//go:build unix

package ptysession

import "testing"

func TestPendingInputBelongsToItsReader(t *testing.T) {
	p := fast
	p.MaxInterval = 1
	m := newManager(t, p)
	id := startBash(t, m)
	ctx := testCtx(t)
	if _, err := m.Continue(ctx, id, "rm -r"); err != nil {
		t.Fatal(err)
	}
	if info, _ := m.Get(id); info.Pending != "rm -r" {
		t.Fatalf("pending after typing without Enter: %q", info.Pending)
	}
	if _, err := m.Continue(ctx, id, "f x\x15"); err != nil { // Ctrl+U drops the line
		t.Fatal(err)
	}
	if info, _ := m.Get(id); info.Pending != "" {
		t.Fatalf("pending after Ctrl+U: %q", info.Pending)
	}
	// Typed to cat, then cat ends: the shell does not inherit it.
	if _, err := m.Continue(ctx, id, "cat\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Continue(ctx, id, "abc"); err != nil {
		t.Fatal(err)
	}
	if info, _ := m.Get(id); info.Pending != "abc" || info.Program != "cat" {
		t.Fatalf("typed to cat: %+v", info)
	}
	if _, err := m.Continue(ctx, id, "\x1c"); err != nil { // Ctrl+\ quits cat
		t.Fatal(err)
	}
	if info, _ := m.Get(id); info.Pending != "" || info.Program != "bash" {
		t.Fatalf("after cat ended: %+v", info)
	}
}

func TestPendingAfter(t *testing.T) {
	cases := []struct{ pending, input, want string }{
		{"", "ls", "ls"},
		{"ls", " -la\n", ""},
		{"os.sys", "tem(", "os.system("},
		{"abc", "\x7f\x7fx", "ax"},
		{"abc", "\x03", ""},
		{"a", "b\nc", "c"},
		{"abc", "\x1c", ""},
		{"abc", "\x1a", ""},
	}
	for _, c := range cases {
		if got := pendingAfter(c.pending, c.input); got != c.want {
			t.Errorf("pendingAfter(%q, %q) = %q, want %q", c.pending, c.input, got, c.want)
		}
	}
}
