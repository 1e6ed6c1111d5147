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

func benchRedact(b *testing.B, text string) { benchWith(b, New(Options{}), text) }

// benchKnown measures a detector that knows a machine's secrets (the
// values of its environment, the fingerprints of its credential files),
// as nb's always does.
func benchKnown(b *testing.B, text string) {
	files := aHome(b)
	benchWith(b, New(Options{Values: anEnvironment, Files: func() []File { return files }}), text)
}

func benchWith(b *testing.B, d *Detector, text string) {
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

// BenchmarkRedactSandwichKnown: the same, with a machine's secrets known.
func BenchmarkRedactSandwichKnown(b *testing.B) { benchKnown(b, benchText(b, 10<<10)) }

// BenchmarkRedactREADMEKnown: 52 KB of prose, with a machine's secrets
// known.
func BenchmarkRedactREADMEKnown(b *testing.B) { benchKnown(b, benchText(b, 52<<10)) }

// BenchmarkRedactLog: 16 MiB of a build log without secrets, the rate at
// which the detector reads output.
func BenchmarkRedactLog(b *testing.B) { benchRedact(b, logText(16<<20)) }

// BenchmarkLoad: reading and indexing the rule set (done once, when the
// detector first scans).
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := loadRules(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStartKnown: the detector's start with a machine's secrets
// known (the rule set, the secret variables, the token lines of a home's
// secret files in all their spellings, indexed), done when it first scans.
func BenchmarkStartKnown(b *testing.B) {
	files := aHome(b)
	for b.Loop() {
		New(Options{Values: anEnvironment, Files: func() []File { return files }}).Warm()
	}
}

// mixedText is n bytes of what commands print: build and test log lines
// (nine tenths) and prose with commands and configuration (the rest,
// this repository's README), in lines.
func mixedText(b testing.TB, n int) string {
	prose := benchText(b, 64<<10)
	log := "2025-01-01T00:00:00Z INFO compiling package github.com/nb-cli/nb/internal/agent (14 files, 3 deps) ok\n" +
		"=== RUN   TestSandwich/long_lines\n--- PASS: TestSandwich/long_lines (0.01s)\n" +
		"drwxr-xr-x  5 root root   4096 Nov 28 18:07 internal\n-rw-r--r--  1 root root  43120 Nov 28 18:07 README.md\n"
	var s strings.Builder
	for s.Len() < n {
		for range 9 {
			for s.Len() < n && s.Len()%(64<<10) < 58<<10 {
				s.WriteString(log)
			}
		}
		s.WriteString(prose[:6<<10])
	}
	return s.String()[:n]
}

// BenchmarkRedact1GiB: the detector's cost on 1 GiB of output (in 1 MiB
// texts), were every byte of it sent to a model. nb scans only what the
// model receives: run_cmd's head and tail, a file read's limit.
func BenchmarkRedact1GiB(b *testing.B) { bench1GiB(b, New(Options{})) }

// BenchmarkRedact1GiBKnown: the same, with a machine's secrets known (as
// nb's detector always does).
func BenchmarkRedact1GiBKnown(b *testing.B) {
	files := aHome(b)
	bench1GiB(b, New(Options{Values: anEnvironment, Files: func() []File { return files }}))
}

func bench1GiB(b *testing.B, d *Detector) {
	d.Warm()
	text := mixedText(b, 1<<20)
	d.Redact(text, nil)
	b.SetBytes(1 << 30)
	b.ResetTimer()
	for b.Loop() {
		for range benchChunks {
			d.Redact(text, nil)
		}
	}
}

// benchChunks is how many 1 MiB texts BenchmarkRedact1GiB scans.
var benchChunks = 1024

// logText is n bytes of a build log.
func logText(n int) string {
	line := "2025-01-01T00:00:00Z INFO compiling package github.com/nb-cli/nb/internal/agent (14 files, 3 deps) ok\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}

// BenchmarkSkeleton: reducing 1 MiB of a log to its letters and digits
// (what known secrets are searched in).
func BenchmarkSkeleton(b *testing.B) {
	text := logText(1 << 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		v := views{text: text}
		v.skeleton()
	}
}

// BenchmarkKeywords: the rule set's keyword index over 1 MiB of a log,
// the detector's pass that every text gets, to compare with.
func BenchmarkKeywords(b *testing.B) {
	rs, _ := loadRules()
	text := logText(1 << 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		rs.index.find(text, func(hit) {})
	}
}

// BenchmarkBlobs: finding the base64 and hex blobs of 1 MiB of a log.
func BenchmarkBlobs(b *testing.B) {
	text := logText(1 << 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		v := views{text: text}
		v.blobs()
	}
}

// BenchmarkRedactLogKnown: 16 MiB of a build log, with a machine's
// secrets known.
func BenchmarkRedactLogKnown(b *testing.B) { benchKnown(b, logText(16<<20)) }

// BenchmarkKnownFind: the search of a machine's known secrets, in all
// their spellings and readings, over 1 MiB of a log.
func BenchmarkKnownFind(b *testing.B) {
	files := aHome(b)
	d := New(Options{Values: anEnvironment, Files: func() []File { return files }})
	d.Warm()
	text := logText(1 << 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		v := views{text: text}
		d.known.find(&v, nil)
		v.release()
	}
}
