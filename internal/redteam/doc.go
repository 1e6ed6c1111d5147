// Package redteam holds adversarial tests of nb's approval policy: a corpus
// of commands with the decision, safety, warning and display each must (or
// must not) get, run through the policy engine in-process and through the
// `nb policy check --json` binary, and a differential test that runs tricky
// commands under real bash (in a bubblewrap sandbox, every command a
// recording shim) and compares what bash executed with what the analyser
// reported. The package has no non-test code.
package redteam
