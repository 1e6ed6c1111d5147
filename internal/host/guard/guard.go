// Package guard is nb's process guard: nb's binary executed again with
// Arg waits for nb to end, however it ends, and then kills every process
// still carrying nb's run marker (package host starts it and marks what
// it runs).
//
// The guard takes over in this package's init, not in main: this package
// imports only the standard library, so the guard starts without waiting
// for the initialisation of the rest of nb, and competes less with the
// command it was started beside.
package guard

import "os"

// Arg is the hidden first argument that makes nb's binary the guard.
const Arg = "__nb-guard"

// RunIDEnv marks every process nb starts: NB_RUN_ID=NBPID.INSTANCE.SEQ.
const RunIDEnv = "NB_RUN_ID"

func init() {
	if len(os.Args) > 1 && os.Args[1] == Arg {
		os.Exit(Main(os.Args[2:]))
	}
}
