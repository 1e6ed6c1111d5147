package fsfacts_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nb-cli/nb/internal/fsfacts"
)

// BenchmarkSecretFiles5000 looks through a tree of 5,000 files in 250
// directories, as a recursive grep decision does.
func BenchmarkSecretFiles5000(b *testing.B) {
	dir := b.TempDir()
	for d := 0; d < 250; d++ {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%d", d))
		os.MkdirAll(sub, 0o755)
		for f := 0; f < 20; f++ {
			os.WriteFile(filepath.Join(sub, fmt.Sprintf("file%d.go", f)), nil, 0o644)
		}
	}
	facts := fsfacts.Disk{}
	b.ResetTimer()
	for b.Loop() {
		if _, ok := facts.SecretFiles(dir); !ok {
			b.Fatal("incomplete")
		}
	}
}
