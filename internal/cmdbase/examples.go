package cmdbase

// Examples are commands of one entry with what nb must decide for them,
// written in the entry's own literal so that what the base says about a
// program and the proof of it are read together. They run as tests
// through the policy's one door, policy.Engine.Decide
// (TestEntryExamples): a Unix entry's under bash, a Windows entry's under
// each shell it belongs to (In).
type Examples struct {
	// Allow are approved without asking: they only read.
	Allow []string
	// Ask are asked, without the warning.
	Ask []string
	// Warn are asked with the warning (default No, no Always): they are
	// dangerous, or write, move or delete files (seed 000).
	Warn []string
}
