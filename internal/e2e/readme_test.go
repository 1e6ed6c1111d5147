package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"go.yaml.in/yaml/v3"
)

// workflow is the part of a GitHub Actions workflow file the README's
// example must have for GitHub to accept and run it.
type workflow struct {
	Name string         `yaml:"name"`
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		RunsOn string `yaml:"runs-on"`
		Steps  []step `yaml:"steps"`
	} `yaml:"jobs"`
}

type step struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
	Run  string            `yaml:"run"`
}

// readmeWorkflow parses the README's GitHub Actions block (the yaml block
// holding the "Check with nb" step) and returns its one job's steps.
func readmeWorkflow(t *testing.T) []step {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var block string
	for _, part := range strings.Split(string(readme), "```yaml\n")[1:] {
		body, _, _ := strings.Cut(part, "```")
		if strings.Contains(body, "name: Check with nb") {
			block = body
		}
	}
	if block == "" {
		t.Fatal(`README.md has no yaml block with a "Check with nb" step`)
	}
	var wf workflow
	if err := yaml.Unmarshal([]byte(block), &wf); err != nil {
		t.Fatalf("README workflow: %v\n%s", err, block)
	}
	if len(wf.On) == 0 {
		t.Errorf("README workflow has no on: trigger (GitHub rejects it)")
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("README workflow has %d jobs, want 1", len(wf.Jobs))
	}
	for name, job := range wf.Jobs {
		if job.RunsOn == "" {
			t.Errorf("job %s has no runs-on", name)
		}
		return job.Steps
	}
	return nil
}

// TestREADMEWorkflow: the README's workflow checks out the repository, sets
// up Go from go.mod, builds nb from the checkout onto PATH and then runs the
// check, in that order; the check step is exactly testdata/ci_example.txtar's
// ci.sh, which the end-to-end scripts run; and the build step really builds
// a working nb (not in -short mode).
func TestREADMEWorkflow(t *testing.T) {
	steps := readmeWorkflow(t)
	index := func(match func(s step) bool) int {
		for i, s := range steps {
			if match(s) {
				return i
			}
		}
		return -1
	}
	checkout := index(func(s step) bool { return strings.HasPrefix(s.Uses, "actions/checkout@") })
	setupGo := index(func(s step) bool { return strings.HasPrefix(s.Uses, "actions/setup-go@") })
	build := index(func(s step) bool { return strings.Contains(s.Run, "go build") && strings.Contains(s.Run, "./cmd/nb") })
	check := index(func(s step) bool { return s.Name == "Check with nb" })
	if checkout < 0 || setupGo < 0 || build < 0 || check < 0 {
		t.Fatalf("README workflow steps: checkout %d, setup-go %d, build %d, check %d (want all)", checkout, setupGo, build, check)
	}
	if !(checkout < setupGo && setupGo < build && build < check) {
		t.Errorf("README workflow steps out of order: checkout %d, setup-go %d, build %d, check %d", checkout, setupGo, build, check)
	}
	if v := steps[setupGo].With["go-version-file"]; v != "go.mod" {
		t.Errorf("setup-go go-version-file %q, want go.mod (the Go this module needs)", v)
	}
	if strings.Contains(steps[build].Run, "@latest") {
		t.Errorf("the build step fetches a module version instead of building the checkout:\n%s", steps[build].Run)
	}
	if steps[check].Env["OPENAI_API_KEY"] == "" {
		t.Error("the check step sets no provider key")
	}

	ar, err := txtar.ParseFile("testdata/ci_example.txtar")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range ar.Files {
		if f.Name == "ci.sh" {
			found = true
			if string(f.Data) != steps[check].Run {
				t.Errorf("ci_example.txtar's ci.sh differs from the README step:\n--- README\n%s--- ci.sh\n%s", steps[check].Run, f.Data)
			}
		}
	}
	if !found {
		t.Error("ci_example.txtar has no ci.sh")
	}

	if testing.Short() {
		t.Log("not running the build step in -short mode")
		return
	}
	// The build step, run as the runner would: bash -e in the checkout,
	// with RUNNER_TEMP and GITHUB_PATH (a file of directories for PATH).
	tmp := t.TempDir()
	ghPath := filepath.Join(tmp, "github_path")
	cmd := exec.Command("bash", "-e", "-c", steps[build].Run)
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "RUNNER_TEMP="+tmp, "GITHUB_PATH="+ghPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build step: %v\n%s", err, out)
	}
	dirs, err := os.ReadFile(ghPath)
	if err != nil {
		t.Fatalf("the build step added nothing to GITHUB_PATH: %v", err)
	}
	nb, err := exec.LookPath(filepath.Join(strings.TrimSpace(string(dirs)), "nb"))
	if err != nil {
		t.Fatalf("no nb in the directory added to PATH: %v", err)
	}
	out, err := exec.Command(nb, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "nb ") {
		t.Errorf("built nb --version: %q, %v", out, err)
	}
}
