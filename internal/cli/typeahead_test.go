package cli

import (
	"strings"
	"testing"
)

func TestTypeaheadText(t *testing.T) {
	cases := map[string]string{
		"hello":                  "hello",
		"helo\x7f\x7flo":         "helo",
		"one\rtwo":               "one ⏎ two",
		"abc\x15xyz":             "xyz",
		"a\x1b[Db":               "ab",
		strings.Repeat("x", 100): "…" + strings.Repeat("x", typeaheadShown-1),
	}
	for in, want := range cases {
		if got := typeaheadText([]byte(in)); got != want {
			t.Errorf("typeaheadText(%q) = %q, want %q", in, got, want)
		}
	}
}
