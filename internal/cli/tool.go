package cli

import (
	"fmt"

	"github.com/nb-cli/nb/internal/iostreams"
)

// runTool implements `nb tool NAME ARGS_JSON`.
func runTool(args []string, io *iostreams.IO) int {
	fmt.Fprintln(io.Err, "nb tool: not implemented yet")
	return ExitError
}
