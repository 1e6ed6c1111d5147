package guard

import (
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestStandardLibraryOnly: the guard takes over in this package's init,
// once what it imports is initialised; an import of the rest of nb would
// make it wait for that.
func TestStandardLibraryOnly(t *testing.T) { testenv.ImportsOnly(t) }
