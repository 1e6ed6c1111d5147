package shellparse

import (
	"strings"
	"testing"
)

func TestStatusCommand(t *testing.T) {
	cases := map[string]string{
		"grep -c foo notes.txt":          "grep -c foo notes.txt",
		"cat x | /usr/bin/grep -q y":     "grep -q y",
		"echo a; diff a b":               "diff a b",
		"[[ -f x ]]":                     "[[",
		"test -f x":                      "test -f x",
		"cd x && grep y f":               "",
		"grep y f || true":               "",
		"! grep y f":                     "",
		"for f in *; do grep x $f; done": "",
		"$cmd x":                         "",
		"grep \"$pat\" f":                "grep ? f",
		"sleep 1 &":                      "",
		"if true; then grep x f; fi":     "",
		"grep x f |":                     "",
	}
	for src, want := range cases {
		name, args, ok := StatusCommand(src)
		got := ""
		if ok {
			got = strings.Join(append([]string{name}, args...), " ")
		}
		if got != want {
			t.Errorf("StatusCommand(%q) = %q, want %q", src, got, want)
		}
	}
}
