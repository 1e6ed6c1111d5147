package redteam

import (
	"testing"

	"github.com/nb-cli/nb/internal/policy"
)

// BenchmarkCorpusDecisions measures deciding every corpus command once.
func BenchmarkCorpusDecisions(b *testing.B) {
	cases := loadCorpus(b)
	e, err := newEngine(&corpusCase{})
	if err != nil {
		b.Fatal(err)
	}
	cc := policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}}
	b.ResetTimer()
	for b.Loop() {
		for _, c := range cases {
			decide(e, c.command, cc)
		}
	}
}
