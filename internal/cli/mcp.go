package cli

import (
	"fmt"

	"github.com/nb-cli/nb/internal/iostreams"
)

// runMCP implements `nb mcp serve`.
func runMCP(args []string, io *iostreams.IO) int {
	fmt.Fprintln(io.Err, "nb mcp: not implemented yet")
	return ExitError
}
