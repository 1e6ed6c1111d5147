package e2e

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nb-cli/nb/internal/testenv"
)

// repoRoot is the repository's top directory, seen from this package.
const repoRoot = "../.."

// goreleaserConfig is the part of .goreleaser.yaml the release depends on.
type goreleaserConfig struct {
	Version     int    `yaml:"version"`
	ProjectName string `yaml:"project_name"`
	Builds      []struct {
		ID      string   `yaml:"id"`
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
	Release struct {
		GitHub struct {
			Owner string `yaml:"owner"`
			Name  string `yaml:"name"`
		} `yaml:"github"`
	} `yaml:"release"`
}

// modulePath is the module line of go.mod.
func modulePath(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	t.Fatal("go.mod has no module line")
	return ""
}

// TestGoReleaserConfig checks the release configuration against the
// repository: the main package it builds, the variable its ldflags set, the
// six targets, checksums, Windows zips and the GitHub repository named by
// the module path; then loads it with goreleaser's own configuration
// package, and runs goreleaser check where goreleaser is installed.
func TestGoReleaserConfig(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg goreleaserConfig
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if cfg.Version != 2 {
		t.Errorf("version: %d, want 2 (goreleaser v2's format)", cfg.Version)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf("%d builds, want 1 (nb)", len(cfg.Builds))
	}
	b := cfg.Builds[0]
	if b.Main != "./cmd/nb" || b.Binary != "nb" {
		t.Errorf("build main %q binary %q, want ./cmd/nb and nb", b.Main, b.Binary)
	}
	if name := packageName(t, filepath.Join(repoRoot, b.Main)); name != "main" {
		t.Errorf("%s is package %q, not main", b.Main, name)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("build env %q lacks CGO_ENABLED=0 (cross-compiled binaries must not need cgo)", b.Env)
	}
	wantOS, wantArch := []string{"darwin", "linux", "windows"}, []string{"amd64", "arm64"}
	if got := sorted(b.Goos); !slices.Equal(got, wantOS) {
		t.Errorf("goos %q, want %q", got, wantOS)
	}
	if got := sorted(b.Goarch); !slices.Equal(got, wantArch) {
		t.Errorf("goarch %q, want %q", got, wantArch)
	}

	// The ldflags set the version variable of the cli package, by the
	// module's own path: a rename on either side breaks --version silently.
	mod := modulePath(t)
	ld := strings.Join(b.Ldflags, " ")
	prefix := "-X " + mod + "/internal/cli.Version="
	if !strings.Contains(ld, prefix+"{{.Version}}") {
		t.Errorf("ldflags %q do not set %s{{.Version}}", ld, prefix)
	}
	if !declaresStringVar(t, filepath.Join(repoRoot, "internal/cli"), "Version") {
		t.Error("internal/cli declares no package-level variable Version for -X to set")
	}

	if cfg.Checksum.NameTemplate == "" || cfg.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum %+v: want a checksums file with sha256", cfg.Checksum)
	}
	zip := false
	for _, a := range cfg.Archives {
		for _, o := range a.FormatOverrides {
			zip = zip || (o.Goos == "windows" && slices.Contains(o.Formats, "zip"))
		}
	}
	if !zip {
		t.Error("no archive override makes Windows archives zip files")
	}
	if gh := "github.com/" + cfg.Release.GitHub.Owner + "/" + cfg.Release.GitHub.Name; gh != mod {
		t.Errorf("release repository %s is not the module path %s", gh, mod)
	}

	// Every target's package graph resolves (no platform without files).
	for _, goos := range b.Goos {
		for _, goarch := range b.Goarch {
			cmd := exec.Command("go", "list", "-deps", "-f", "{{if .Error}}{{.ImportPath}}: {{.Error}}{{end}}", b.Main)
			cmd.Dir = repoRoot
			cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
			out, err := cmd.CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "" {
				t.Errorf("%s/%s: go list %s: %v\n%s", goos, goarch, b.Main, err, out)
			}
		}
	}

	t.Run("goreleaser's own configuration package", func(t *testing.T) {
		if out, err := goreleaserCheck(t, ".goreleaser.yaml"); err != nil {
			t.Errorf("%v\n%s", err, out)
		}
		// The check can fail: a field goreleaser does not know.
		bad := filepath.Join(t.TempDir(), "bad.yaml")
		os.WriteFile(bad, []byte(strings.Replace(string(data), "    binary: nb\n", "    binary: nb\n    bianry: nb\n", 1)), 0o644)
		if out, err := goreleaserCheck(t, bad); err == nil || !strings.Contains(string(out), "bianry") {
			t.Errorf("a misspelled field passed the check: %v\n%s", err, out)
		}
	})
	t.Run("goreleaser check", func(t *testing.T) {
		// The release tool itself, where a developer has it; the test
		// command does not build it (several minutes).
		bin, err := exec.LookPath("goreleaser")
		if err != nil {
			t.Skip("goreleaser is not installed; its configuration package checked the file")
		}
		cmd := exec.Command(bin, "check", "--config", ".goreleaser.yaml")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("goreleaser check: %v\n%s", err, out)
		}
	})
}

// goreleaserCheck loads file (relative to the repository) with
// goreleaser's own configuration package, compiled from the small module
// in testdata/goreleasercheck, which pins the release tool's version.
func goreleaserCheck(t *testing.T, file string) ([]byte, error) {
	t.Helper()
	if !filepath.IsAbs(file) {
		abs, err := filepath.Abs(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		file = abs
	}
	cmd := exec.Command(testenv.Tool(t, "go"), "run", ".", file)
	cmd.Dir = filepath.Join("testdata", "goreleasercheck")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOWORK=off")
	return cmd.CombinedOutput()
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// packageName is the package clause of the Go files in dir.
func packageName(t *testing.T, dir string) string {
	t.Helper()
	pkgs := parseDir(t, dir)
	for name := range pkgs {
		return name
	}
	return ""
}

func parseDir(t *testing.T, dir string) map[string][]*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string][]*ast.File{}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		pkgs[f.Name.Name] = append(pkgs[f.Name.Name], f)
	}
	return pkgs
}

// declaresStringVar reports whether the package in dir declares a
// package-level variable name initialised by a string literal (what the
// linker's -X can set).
func declaresStringVar(t *testing.T, dir, name string) bool {
	for _, files := range parseDir(t, dir) {
		for _, f := range files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if n.Name != name || i >= len(vs.Values) {
							continue
						}
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
