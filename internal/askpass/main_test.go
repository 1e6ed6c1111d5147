package askpass

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	// The tests with a real sudo run this binary as sudo's askpass
	// program, as sudo runs nb.
	if handled, code := MaybeHelper(os.Args[1:]); handled {
		os.Exit(code)
	}
	os.Exit(m.Run())
}
