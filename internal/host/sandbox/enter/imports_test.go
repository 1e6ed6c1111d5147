package enter

import (
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestFewImports: the helper takes over in this package's init, which Go
// runs once what the package imports is initialised. An import of the
// rest of nb, or of a module with a heavy initialisation, would make every
// sandboxed command wait for it: only the standard library, x/sys and
// go-landlock may be imported.
func TestFewImports(t *testing.T) {
	testenv.ImportsOnly(t, "golang.org/x/sys/", "github.com/landlock-lsm/go-landlock/")
}
