// Command nb is a command-line AI assistant that can act on the machine it
// runs on. See the README for usage.
package main

import (
	"os"

	"github.com/nb-cli/nb/internal/cli"
	"github.com/nb-cli/nb/internal/iostreams"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], iostreams.System()))
}
