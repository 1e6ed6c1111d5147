package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestREADMEWorkflowIsTested keeps the README's GitHub Actions step and the
// script testdata/ci_example.txtar runs identical.
func TestREADMEWorkflowIsTested(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	step := runBlock(string(readme), "- name: Check with nb")
	if step == "" {
		t.Fatal(`README.md has no "Check with nb" step with a run: | block`)
	}
	ar, err := txtar.ParseFile("testdata/ci_example.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "ci.sh" {
			if string(f.Data) != step {
				t.Errorf("ci_example.txtar's ci.sh differs from the README step:\n--- README\n%s--- ci.sh\n%s", step, f.Data)
			}
			return
		}
	}
	t.Fatal("ci_example.txtar has no ci.sh")
}

// runBlock returns the dedented `run: |` block of the YAML step whose
// first line is stepLine.
func runBlock(text, stepLine string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != stepLine {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) != "run: |" {
				continue
			}
			indent := len(lines[j]) - len(strings.TrimLeft(lines[j], " ")) + 2
			var b strings.Builder
			for _, body := range lines[j+1:] {
				if strings.TrimSpace(body) != "" && !strings.HasPrefix(body, strings.Repeat(" ", indent)) {
					break
				}
				if strings.TrimSpace(body) == "```" {
					break
				}
				b.WriteString(strings.TrimPrefix(body, strings.Repeat(" ", indent)) + "\n")
			}
			return b.String()
		}
	}
	return ""
}
