// Command nb is a command-line AI assistant that can act on the machine it
// runs on. See the README for usage.
package main

import (
	"os"

	"github.com/nb-cli/nb/internal/cli"
	"github.com/nb-cli/nb/internal/host/sandbox"
	"github.com/nb-cli/nb/internal/iostreams"
)

func main() {
	// The Landlock sandbox re-executes nb as a helper that restricts itself
	// and then runs the command; nothing else may happen before it.
	if handled, code := sandbox.MaybeHelper(os.Args[1:]); handled {
		os.Exit(code)
	}
	os.Exit(cli.Main(os.Args[1:], iostreams.System()))
}
