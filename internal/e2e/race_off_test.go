//go:build !race

package e2e

// raceEnabled: see race_on_test.go.
const raceEnabled = false
