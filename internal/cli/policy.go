package cli

import (
	"fmt"

	"github.com/nb-cli/nb/internal/iostreams"
)

// runPolicy implements `nb policy check`.
func runPolicy(args []string, io *iostreams.IO) int {
	fmt.Fprintln(io.Err, "nb policy: not implemented yet")
	return ExitError
}
