package secrets

import (
	"path"
	"testing"
)

func TestHomePathsAreRelativeAndClean(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range HomePaths() {
		if p == "" || path.IsAbs(p) || path.Clean(p) != p {
			t.Errorf("%q: want a clean relative path", p)
		}
		if seen[p] {
			t.Errorf("%q listed twice", p)
		}
		seen[p] = true
	}
	for _, must := range []string{".ssh", ".aws", ".config/gh", ".vault-token", ".npmrc"} {
		if !seen[must] {
			t.Errorf("%s missing", must)
		}
	}
}
