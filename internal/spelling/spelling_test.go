package spelling

import "testing"

func TestSuggest(t *testing.T) {
	cands := []string{"approve", "provider", "model", "config", "defaultTimeout", "/clear", "/help"}
	for in, want := range map[string]string{
		"aprove":         "approve",
		"modle":          "model",
		"prov":           "provider",
		"defualtTimeout": "defaultTimeout",
		"DefaultTimeout": "defaultTimeout",
		"/claer":         "/clear",
		"zzzzzzzzzz":     "",
		"x":              "",
	} {
		if got := Suggest(in, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
