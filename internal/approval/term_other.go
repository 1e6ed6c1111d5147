//go:build !unix

package approval

import (
	"context"

	"golang.org/x/term"
)

func rawMode(fd int) (func(), error) {
	old, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	return func() { _ = term.Restore(fd, old) }, nil
}

func discardInput(fd int) {}

// waitReadable cannot poll a console here: it reports input as ready and
// lets the read block.
func waitReadable(ctx context.Context, fd int, ms int) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return ms < 0, nil
}

// termHeight is the terminal's height in rows, 0 when unknown.
func termHeight(fd int) int {
	_, h, err := term.GetSize(fd)
	if err != nil {
		return 0
	}
	return h
}
