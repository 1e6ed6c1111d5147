package style

import "testing"

func TestWidth(t *testing.T) {
	cases := map[string]int{"abc": 3, "⚠️": 2, "delete ⚠️: x": 12, "日本": 4, "\x1b[31mred\x1b[0m": 3, "→": 1}
	for s, want := range cases {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	if got := Truncate("delete ⚠️: /tmp/cache", 10); got != "delete ⚠️…" || Width(got) > 10 {
		t.Errorf("Truncate = %q (width %d)", got, Width(got))
	}
	if got := Truncate("short", 10); got != "short" {
		t.Errorf("Truncate short = %q", got)
	}
	if got := Truncate("abc", 0); got != "" {
		t.Errorf("Truncate to 0 = %q", got)
	}
}

func TestRows(t *testing.T) {
	if got := Rows("12345678901", 10); got != 2 {
		t.Errorf("Rows = %d", got)
	}
	if got := Rows("a\n\nb", 10); got != 3 {
		t.Errorf("Rows = %d", got)
	}
	if got := Rows("1234567890", 10); got != 1 {
		t.Errorf("Rows exact = %d", got)
	}
}

func TestSanitize(t *testing.T) {
	if got := Sanitize("a\tb\x1b]0;t\x07c\x1b[2Jd\re\x00"); got != "a  bcde" {
		t.Errorf("Sanitize = %q", got)
	}
}

func TestPaletteOff(t *testing.T) {
	p := Palette{}
	if p.OK("x")+p.Fail("x")+p.Heading("x", 1)+p.KeyHint("Y", "es") != "xxx[Y]es" {
		t.Error("colour off still styles")
	}
	if (Palette{Color: true}).OK("x") != "\x1b[32mx\x1b[0m" {
		t.Error("colour on")
	}
}
