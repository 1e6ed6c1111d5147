package visible

import (
	"strings"
	"testing"
	"unicode"
)

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"ls -la":                        "ls -la",
		"echo hi\x1b[2K\rrm -rf ~":      `echo hi\x1b[2K\rrm -rf ~`,
		"cat a\u202etxt.hs":             `cat a\u202etxt.hs`,
		"rm\u200b -rf":                  `rm\u200b -rf`,
		"a\nb":                          `a\nb`,
		"tab\there":                     "tab\there",
		"bell\a del\x7f nul\x00":        `bell\x07 del\x7f nul\x00`,
		"nbsp\u00a0x ideographic\u3000": `nbsp\u00a0x ideographic\u3000`,
		"bad \xff byte":                 `bad \xff byte`,
		"c1 \u0085 \u009b":              `c1 \u0085 \u009b`,
		"émoji ✓ 日本":                    "émoji ✓ 日本",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
		if again := String(String(in)); again != String(in) {
			t.Errorf("escaping %q twice changed it: %q", in, again)
		}
		if Hides(String(in)) {
			t.Errorf("String(%q) still hides something", in)
		}
	}
	if got := Lines("a\x1b\nb\u202e"); got != "a\\x1b\nb\\u202e" {
		t.Errorf("Lines: %q", got)
	}
	if !Hides("x\u2066y") || Hides("plain\ttext\n") {
		t.Error("Hides")
	}
}

// Nothing that renders as nothing, or moves the cursor, survives.
func TestNoInvisibleSurvives(t *testing.T) {
	for r := rune(0); r < 0x110000; r++ {
		if r >= 0xd800 && r < 0xe000 || r == '\t' {
			continue
		}
		out := String(string(r))
		for _, o := range out {
			if o < 0x20 || o == 0x7f || (o >= 0x80 && o < 0xa0) || unicode.Is(unicode.Cf, o) || (unicode.IsSpace(o) && o != ' ') {
				t.Fatalf("U+%04X survives as %q", r, out)
			}
		}
		if strings.ContainsRune(out, '\n') {
			t.Fatalf("U+%04X gives a newline", r)
		}
	}
}
