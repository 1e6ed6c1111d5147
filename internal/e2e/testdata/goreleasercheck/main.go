// Command goreleasercheck loads a goreleaser configuration with
// goreleaser's own configuration package, which refuses any field
// goreleaser does not know, and says whether it is valid. It is a module
// of its own, so that checking .goreleaser.yaml (internal/e2e's
// TestGoReleaserConfig) compiles that package and what it needs, not the
// whole release tool.
//
// Usage: go run . FILE
package main

import (
	"fmt"
	"os"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goreleasercheck FILE")
		os.Exit(2)
	}
	p, err := config.Load(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	if p.Version != 2 {
		fmt.Fprintf(os.Stderr, "%s: version %d, goreleaser v2 reads version 2\n", os.Args[1], p.Version)
		os.Exit(1)
	}
	fmt.Printf("%s: valid goreleaser configuration (%d builds, %d archives)\n", os.Args[1], len(p.Builds), len(p.Archives))
}
