package redact

import (
	"os"
	"strings"
	"testing"
)

// benchText is n bytes of this repository's README, repeated: prose,
// commands, tables and JSON, with the keywords of many rules (key, token,
// secret, password) on many lines.
func benchText(b testing.TB, n int) string {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		b.Fatal(err)
	}
	s := strings.Repeat(string(data), n/len(data)+1)
	return s[:n]
}

func benchRedact(b *testing.B, text string) {
	d := New(Options{})
	d.Warm()
	d.Redact(text, nil) // compile the rules its keywords trigger
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		d.Redact(text, nil)
	}
}

// BenchmarkRedactREADME: what a tool result of 52 KB of prose costs.
func BenchmarkRedactREADME(b *testing.B) { benchRedact(b, benchText(b, 52<<10)) }

// BenchmarkRedactSandwich: the largest run_cmd result the model gets
// (10 KB head and tail of output).
func BenchmarkRedactSandwich(b *testing.B) { benchRedact(b, benchText(b, 10<<10)) }

// BenchmarkRedactLog: 16 MiB of a build log without secrets, the rate at
// which the detector reads output.
func BenchmarkRedactLog(b *testing.B) {
	line := "2025-01-01T00:00:00Z INFO compiling package github.com/nb-cli/nb/internal/agent (14 files, 3 deps) ok\n"
	benchRedact(b, strings.Repeat(line, 16<<20/len(line)))
}

// BenchmarkLoad: reading and indexing the rule set (done once, when the
// detector first scans).
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := loadRules(); err != nil {
			b.Fatal(err)
		}
	}
}
