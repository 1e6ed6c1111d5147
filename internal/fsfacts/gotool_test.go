package fsfacts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// goFixture makes a user configuration with telemetry off and a project
// whose go.mod has the given go line; it returns the project directory.
func goFixture(t *testing.T, modLines string) string {
	t.Helper()
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("GOENV", "")
	t.Setenv("GOWORK", "")
	t.Setenv("GO111MODULE", "")
	if err := os.MkdirAll(filepath.Join(cfg, "go", "telemetry"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "go", "telemetry", "mode"), []byte("off 2026-01-01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	proj := t.TempDir()
	if modLines != "" {
		if err := os.WriteFile(filepath.Join(proj, "go.mod"), []byte("module x\n\n"+modLines+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(proj, "internal", "a")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	return sub
}

// TestGoLocal: the fact says go would switch toolchains exactly when the
// real go command tries to (GOTOOLCHAIN=auto, downloads refused by
// GOPROXY=off), and that it records counters unless telemetry is off.
func TestGoLocal(t *testing.T) {
	testenv.Tool(t, "go")
	for _, c := range []struct {
		name, mod, toolchain string
		local                bool
	}{
		{"no module", "", "auto", true},
		{"old go line", "go 1.16", "auto", true},
		{"language version", "go 1.21", "auto", true},
		{"newer go line", "go 1.999", "auto", false},
		{"newer toolchain line", "go 1.16\ntoolchain go1.999.0", "auto", false},
		{"newer prerelease", "go 1.999rc1", "auto", false},
		{"toolchain default", "go 1.16\ntoolchain default", "auto", true},
		{"local toolchain only", "go 1.999", "local", true},
		{"path mode", "go 1.999", "path", false},
		{"a version named", "go 1.16", "go1.999.0", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := goFixture(t, c.mod)
			t.Setenv("GOTOOLCHAIN", c.toolchain)
			why := Disk{}.GoLocal(dir)
			if (why == "") != c.local {
				t.Fatalf("GoLocal = %q, want local=%v", why, c.local)
			}
			cmd := exec.Command("go", "version")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN="+c.toolchain)
			out, err := cmd.CombinedOutput()
			switched := err != nil || strings.Contains(string(out), "go1.999")
			if switched == c.local {
				t.Fatalf("go version: %v %s; the fact said local=%v", err, out, c.local)
			}
		})
	}
	t.Run("telemetry on", func(t *testing.T) {
		dir := goFixture(t, "")
		t.Setenv("GOTOOLCHAIN", "local")
		mode := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "go", "telemetry", "mode")
		if err := os.Remove(mode); err != nil {
			t.Fatal(err)
		}
		if why := (Disk{}).GoLocal(dir); !strings.Contains(why, "telemetry") {
			t.Fatalf("GoLocal without telemetry off = %q", why)
		}
	})
}

func TestCompareGo(t *testing.T) {
	for _, c := range []struct {
		x, y string
		want int
	}{
		{"1.21", "1.21.0", -1}, {"1.21rc1", "1.21.0", -1}, {"1.21beta1", "1.21rc1", -1}, {"1.21", "1.21rc1", -1},
		{"1.22", "1.21.9", 1}, {"1.26.8", "1.26.8", 0}, {"1.9", "1.10", -1}, {"2.0", "1.99", 1},
	} {
		if got, ok := compareGo(c.x, c.y); !ok || got != c.want {
			t.Errorf("compareGo(%s, %s) = %d, %v; want %d", c.x, c.y, got, ok, c.want)
		}
	}
	for _, bad := range []string{"", "1", "x.y", "1.2.3.4", "1.2rc1.3"} {
		if _, ok := compareGo(bad, "1.21.0"); ok {
			t.Errorf("compareGo(%q) accepted", bad)
		}
	}
}
