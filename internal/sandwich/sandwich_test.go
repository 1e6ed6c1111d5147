package sandwich

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func capture(t testing.TB, l Limits, chunks ...[]byte) Result {
	t.Helper()
	c := New(Options{Limits: l})
	for _, p := range chunks {
		c.Write(p)
	}
	res, err := c.Close()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func numbered(n int, width int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf("line %d ", i)
		for len(line) < width-1 {
			line += "x"
		}
		b.WriteString(line + "\n")
	}
	return b.Bytes()
}

func TestSandwich(t *testing.T) {
	def := DefaultLimits()
	tests := []struct {
		name    string
		in      []byte
		cut     bool
		binary  bool
		want    string   // exact Text when set
		has     []string // substrings of Text
		prefix  string
		suffix  string
		notHave []string
	}{
		{name: "empty", in: nil, want: ""},
		{name: "small", in: []byte("hello\nworld"), want: "hello\nworld"},
		{name: "200 lines whole", in: numbered(200, 20), want: string(numbered(200, 20))},
		{name: "201 lines cut", in: numbered(201, 20), cut: true,
			has:    []string{"line 50 x", "[... 131 lines omitted (4.0 KB total) - use grep/tail/head to filter ...]\nline 182 "},
			prefix: "line 1 x", suffix: "line 201 xxxxxxxxxx\n", notHave: []string{"line 51 ", "line 181 "}},
		{name: "seed example", in: numbered(44970, 52), cut: true,
			has:    []string{"line 50 x", "\n[... 44900 lines omitted (2.3 MB total) - use grep/tail/head to filter ...]\nline 44951 "},
			suffix: "line 44970 " + strings.Repeat("x", 40) + "\n", notHave: []string{"line 51 ", "line 44950 "}},
		{name: "over bytes few lines", in: []byte(strings.Repeat("y", 20000) + "\n"), cut: true,
			want: strings.Repeat("y", 2048) + " [... line cut: 17952 more bytes ...]\n"},
		{name: "one giant line", in: bytes.Repeat([]byte("z"), 1<<20), cut: true,
			prefix: strings.Repeat("z", 2048) + "\n[... 1043602 bytes omitted (1.0 MB total) - use grep/tail/head to filter ...]\n[...]zzz",
			suffix: strings.Repeat("z", 2926)},
		{name: "giant lines then short tail", in: []byte(strings.Repeat("a", 30000) + "\n" + strings.Repeat("b", 30000) + "\nend\n"), cut: true,
			has: []string{strings.Repeat("a", 2048) + " [... line cut: 27952 more bytes ...]\n" + strings.Repeat("b", 2048) + " [... line cut: 27952 more bytes ...]\nend\n"}},
		{name: "nul", in: []byte("abc\x00def"), binary: true,
			want: "[binary output not shown: 7 B (7 bytes) that is not UTF-8 text (NUL bytes or invalid UTF-8) - write it to a file and inspect it with file, xxd or strings]"},
		{name: "invalid utf8", in: []byte("caf\xe9 au lait\n"), binary: true, has: []string{"not UTF-8 text"}},
		{name: "ansi", in: []byte("\x1b[1;31mred\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x07 \x1b(Bok\n"), want: "red link ok\n"},
		{name: "utf8 text", in: []byte("héllo € 🙂\n"), want: "héllo € 🙂\n"},
		{name: "unterminated osc keeps lines", in: []byte("a\x1b]0;title\nb\n"), want: "a\nb\n"},
		{name: "progress and crlf", in: []byte("get 10%\rget 50%\rget 100%\ndone\r\nx\r"), want: "get 100%\ndone\nx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := capture(t, def, tt.in)
			// the same stream byte by byte gives the same result
			var chunks [][]byte
			for i := range tt.in {
				chunks = append(chunks, tt.in[i:i+1])
			}
			if len(tt.in) < 100000 {
				if res2 := capture(t, def, chunks...); res2.Text != res.Text {
					t.Fatalf("byte-by-byte differs:\n%q\nvs\n%q", res2.Text, res.Text)
				}
			}
			if res.Cut != tt.cut || res.Binary != tt.binary {
				t.Fatalf("cut=%v binary=%v, want %v %v\n%s", res.Cut, res.Binary, tt.cut, tt.binary, res.Text)
			}
			if res.Bytes != int64(len(tt.in)) {
				t.Errorf("bytes %d, want %d", res.Bytes, len(tt.in))
			}
			if tt.want != "" || (tt.has == nil && tt.prefix == "" && tt.suffix == "") {
				if res.Text != tt.want {
					t.Fatalf("text:\n%q\nwant\n%q", res.Text, tt.want)
				}
			}
			for _, h := range tt.has {
				if !strings.Contains(res.Text, h) {
					t.Errorf("missing %q in\n%s", h, res.Text)
				}
			}
			for _, h := range tt.notHave {
				if strings.Contains(res.Text, h) {
					t.Errorf("unexpected %q in\n%s", h, res.Text)
				}
			}
			if !strings.HasPrefix(res.Text, tt.prefix) {
				t.Errorf("prefix: got %.200q", res.Text)
			}
			if !strings.HasSuffix(res.Text, tt.suffix) {
				t.Errorf("suffix: got ...%q", res.Text[max(0, len(res.Text)-200):])
			}
			if len(res.Text) > def.Budget() {
				t.Errorf("text %d bytes over budget %d", len(res.Text), def.Budget())
			}
		})
	}
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1000: "1.0 KB", 2300000: "2.3 MB", 1 << 30: "1.1 GB"} {
		if got := HumanSize(n); got != want {
			t.Errorf("HumanSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestUTF8AcrossChunks(t *testing.T) {
	s := []byte("€🙂é")
	for i := 0; i <= len(s); i++ {
		for j := i; j <= len(s); j++ {
			res := capture(t, DefaultLimits(), s[:i], s[i:j], s[j:])
			if res.Binary || res.Text != string(s) {
				t.Fatalf("split %d,%d: %+v", i, j, res)
			}
		}
	}
	// invalid continuation split across chunks is still caught
	res := capture(t, DefaultLimits(), []byte("ok \xe2\x82"), []byte("x"))
	if !res.Binary {
		t.Fatalf("broken sequence not detected: %+v", res)
	}
}

func TestSpill(t *testing.T) {
	dir := t.TempDir()
	n := 0
	open := func() (SpillFile, error) {
		n++
		return os.Create(filepath.Join(dir, fmt.Sprintf("out-%d", n)))
	}
	big := numbered(1000, 30)
	colored := append([]byte("\x1b[32m"), big...)
	c := New(Options{Limits: DefaultLimits(), Spill: open})
	for i := 0; i < len(colored); i += 777 {
		c.Write(colored[i:min(i+777, len(colored))])
	}
	res, err := c.Close()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(res.SpillPath)
	if err != nil || !bytes.Equal(got, colored) {
		t.Fatalf("spill %q: %v, %d bytes, want %d", res.SpillPath, err, len(got), len(colored))
	}

	// short output leaves no file behind
	c = New(Options{Limits: DefaultLimits(), Spill: open})
	c.Write([]byte("short\n"))
	if res, _ := c.Close(); res.SpillPath != "" {
		t.Fatalf("short output spilled to %s", res.SpillPath)
	}

	// capped spill
	c = New(Options{Limits: DefaultLimits(), Spill: open, SpillMax: 20000})
	c.Write(big)
	res, err = c.Close()
	if err != nil || !res.SpillTruncated {
		t.Fatalf("want truncated spill: %+v %v", res, err)
	}
	got, _ = os.ReadFile(res.SpillPath)
	if !bytes.HasPrefix(got, big[:20000]) || !bytes.Contains(got, []byte("[nb: output truncated here after 20000 of 30000 bytes]")) {
		t.Fatalf("capped spill content: %q", got[max(0, len(got)-100):])
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("want 2 spill files, have %d", len(entries))
	}

	// spill open failure still gives a result
	c = New(Options{Limits: DefaultLimits(), Spill: func() (SpillFile, error) { return nil, os.ErrPermission }})
	c.Write(big)
	res, err = c.Close()
	if err == nil || !res.Cut || res.SpillPath != "" {
		t.Fatalf("want error and cut result: %+v %v", res, err)
	}
}

func FuzzCapture(f *testing.F) {
	f.Add([]byte("hello\nworld\n"), uint16(3))
	f.Add(numbered(40, 12), uint16(7))
	f.Add([]byte(strings.Repeat("abc", 500)), uint16(11))
	f.Add([]byte("\x1b[31mé\x1b]0;x\x07€\n\n\n"), uint16(1))
	f.Add([]byte("a\nbb\nccc\n"+strings.Repeat("d", 300)+"\ne"), uint16(5))
	l := Limits{ThresholdBytes: 256, ThresholdLines: 10, HeadLines: 3, TailLines: 2, MaxLineBytes: 40}
	f.Fuzz(func(t *testing.T, data []byte, step uint16) {
		whole := capture(t, l, data)
		var chunks [][]byte
		s := int(step%64) + 1
		for i := 0; i < len(data); i += s {
			chunks = append(chunks, data[i:min(i+s, len(data))])
		}
		parts := capture(t, l, chunks...)
		if whole != parts {
			t.Fatalf("chunking changes the result:\n%q\n%q", whole.Text, parts.Text)
		}
		if len(whole.Text) > l.Budget() {
			t.Fatalf("%d bytes over budget %d", len(whole.Text), l.Budget())
		}
		if whole.Binary {
			return
		}
		if !utf8.ValidString(whole.Text) {
			t.Fatalf("invalid UTF-8 result %q", whole.Text)
		}
		stripped := strings.ToValidUTF8(Strip(string(data)), "")
		if !whole.Cut {
			if want := string(collapseCR([]byte(stripped))); whole.Text != want {
				t.Fatalf("uncut text %q, want %q", whole.Text, want)
			}
			return
		}
		if strings.Contains(stripped, "\r") {
			return // carriage returns rewrite lines; head and tail checks assume none
		}
		// head: the start of the first line is kept
		first, _, _ := strings.Cut(stripped, "\n")
		k := runeFloor([]byte(first), min(len(first), l.MaxLineBytes))
		if !strings.HasPrefix(whole.Text, first[:k]) {
			t.Fatalf("head lost: %q does not start with %q", whole.Text, first[:k])
		}
		// tail: the end of the stream is kept, unless the last line was an
		// enormous one already cut in the head
		body := strings.TrimSuffix(stripped, "\n")
		lastLine := body[strings.LastIndex(body, "\n")+1:]
		last := stripped[len(stripped)-min(8, len(stripped)-len(body)+len(lastLine)):]
		for len(last) > 0 && !utf8.RuneStart(last[0]) {
			last = last[1:]
		}
		if !strings.HasSuffix(whole.Text, last) && !strings.HasSuffix(whole.Text, "more bytes ...]\n") {
			t.Fatalf("tail lost: %q does not end with %q", whole.Text, last)
		}
	})
}
