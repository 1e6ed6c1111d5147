package cmdbase

import (
	"slices"
	"testing"
)

// TestAwkOutputs: the files a program's print statements write are the
// string literals after > and >> that end the statement; a file named by
// an expression is reported as such, and a > that compares is no write.
func TestAwkOutputs(t *testing.T) {
	for _, c := range []struct {
		prog  string
		files []string
		named bool
	}{
		{`{print > "out"}`, []string{"out"}, false},
		{`{print $1 >> "/etc/passwd"; print > "b"}`, []string{"/etc/passwd", "b"}, false},
		{`{printf "%s", $0 > "x.txt"}`, []string{"x.txt"}, false},
		{`{print > $1}`, nil, true},
		{`{print > "a" "b"}`, nil, true},
		{`{print > "a\"b"}`, nil, true},
		{`{print > "/dev/stderr"}`, nil, false},
		{`{print (1 > 2)}`, nil, false},
		{`{x = 1 > 2; print x}`, nil, false},
		{`{print "a > b"}`, nil, false},
		{`{system("id"); print > "out"}`, []string{"out"}, false},
		{`{print | "sh"; print > "later"}`, []string{"later"}, false},
	} {
		files, named := awkOutputs(c.prog)
		if !slices.Equal(files, c.files) || named != c.named {
			t.Errorf("%s: files %q named %v, want %q %v", c.prog, files, named, c.files, c.named)
		}
	}
}
