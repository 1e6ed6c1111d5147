//go:build race

package e2e

// raceEnabled: the tests run with the race detector, and so does nb under
// them (testscript runs the test binary as nb): a save takes several times
// longer, so the histories that make one long enough to be interrupted
// need not be as large.
const raceEnabled = true
