package fsfacts

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/testenv"
)

func TestGoVersionOrder(t *testing.T) {
	// each is older than the next, as go's toolchain switch orders them
	order := []string{"1", "1.9", "1.20", "1.21", "1.21beta1", "1.21rc1", "1.21rc2", "1.21.0", "1.21.1", "1.21.10", "1.22", "2.0"}
	for i := 1; i < len(order); i++ {
		a, okA := parseGoVersion(order[i-1])
		b, okB := parseGoVersion(order[i])
		if !okA || !okB || !b.newer(a) || a.newer(b) {
			t.Errorf("%s is not older than %s (%v %v)", order[i-1], order[i], okA, okB)
		}
	}
	for _, bad := range []string{"", "x", "1.x", "1.21.x", "1.21rc", "1.21-1", "1.021", "-1.2", "1.21.1.1"} {
		if _, ok := parseGoVersion(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// goTool is the go on PATH, the one the toolchain facts read.
func goTool(t *testing.T) string {
	t.Helper()
	return testenv.Tool(t, "go")
}

// goEnv runs go with a clean, switching environment: no user settings, no
// network.
func goEnv(dir string) []string {
	return append(os.Environ(), "GOTOOLCHAIN=auto", "GOENV=off", "GOFLAGS=", "GOPROXY=off", "GOWORK=", "GOSUMDB=off")
}

// goModFiles are go.mod files whose go and toolchain lines are read
// differently by a careless reader: comments, spacing, CRLF, blocks.
var goModFiles = []string{
	"module x\n\ngo 1.21\n",
	"module x\ngo 1.21.3 // a comment\n",
	"module x\r\n\r\ngo 1.22rc1\r\ntoolchain go1.23.1\r\n",
	"module x\n\n\tgo   1.20\n\ntoolchain default\n",
	"// go 1.99\nmodule x\n\ngo 1.19\n/* not a block comment in go.mod */\n",
	"module x\n\nrequire (\n\texample.com/go v1.99.0\n)\n\ngo 1.21\n",
	"module x\n",
}

// The go and toolchain lines are read as go itself reads them (go mod
// edit -json).
func TestGoFileVersionsAgreeWithGo(t *testing.T) {
	gobin := goTool(t)
	for _, mod := range goModFiles {
		if strings.Contains(mod, "/*") {
			continue // go mod edit refuses it; read by hand only as a line
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(p, []byte(mod), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(gobin, "mod", "edit", "-json")
		cmd.Dir, cmd.Env = dir, goEnv(dir)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go mod edit -json on %q: %v", mod, err)
		}
		var j struct {
			Go        string
			Toolchain string
		}
		if err := json.Unmarshal(out, &j); err != nil {
			t.Fatal(err)
		}
		var want []string
		if j.Go != "" {
			want = append(want, j.Go)
		}
		if n := j.Toolchain; n != "" && n != "default" {
			want = append(want, strings.TrimPrefix(n, "go"))
		}
		got, err := goFileVersions(p)
		if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%q: read %q (%v), go reads %q", mod, got, err, want)
		}
	}
}

// Whether go fetches another release is held against go itself: in a
// module asking for each release around the installed one, go version
// (with GOTOOLCHAIN=auto and no proxy) either runs or tries to fetch,
// and the fact must say the same.
func TestGoSwitchAgreesWithGo(t *testing.T) {
	gobin := goTool(t)
	inst := installedGo()
	inst.telemetry = "off" // the switch alone; telemetry has its own test
	local, ok := parseGoVersion(strings.TrimPrefix(inst.release, "go"))
	if !ok || local.stage != stageRelease {
		t.Fatalf("installed go %q is not a release", inst.release)
	}
	v := func(major, minor int, tail string) string {
		return strconv.Itoa(major) + "." + strconv.Itoa(minor) + tail
	}
	next, prev := local.minor+1, local.minor-1
	cases := []string{
		"go " + v(local.major, prev, "") + "\n",
		"go " + v(local.major, local.minor, "") + "\n",
		"go " + v(local.major, local.minor, "rc1") + "\n",
		"go " + v(local.major, local.minor, "."+strconv.Itoa(local.n)) + "\n",
		"go " + v(local.major, local.minor, "."+strconv.Itoa(local.n+1)) + "\n",
		"go " + v(local.major, next, "") + "\n",
		"go " + v(local.major, next, "rc1") + "\n",
		"go " + v(local.major, prev, "") + "\ntoolchain go" + v(local.major, next, ".0") + "\n",
		"go " + v(local.major, prev, "") + "\ntoolchain go" + v(local.major, prev, ".1") + "\n",
	}
	env := map[string]string{"GOTOOLCHAIN": "auto", "GOENV": "off"}
	getenv := func(k string) string { return env[k] }
	seen := map[bool]int{}
	for _, c := range cases {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\n"+c), 0o644); err != nil {
			t.Fatal(err)
		}
		sub := filepath.Join(dir, "sub")
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(gobin, "version")
		cmd.Dir, cmd.Env = sub, goEnv(sub)
		out, err := cmd.CombinedOutput()
		switched := err != nil
		seen[switched]++
		if switched && !strings.Contains(string(out), "toolchain") && !strings.Contains(string(out), "download") {
			t.Fatalf("go version with %q failed otherwise: %s", c, out)
		}
		why := goSwitch(sub, getenv, inst)
		if (why != "") != switched {
			t.Errorf("go.mod %q: go switches=%v (%s), the fact says %q", c, switched, strings.TrimSpace(string(out)), why)
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("go switched in %d cases and stayed in %d: the cases test one side only", seen[true], seen[false])
	}
	// GOTOOLCHAIN=local never switches; a named release is fetched
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env["GOTOOLCHAIN"] = "local"
	if why := goSwitch(dir, getenv, inst); why != "" {
		t.Errorf("GOTOOLCHAIN=local: %s", why)
	}
	env["GOTOOLCHAIN"] = "go1.999.0"
	if why := goSwitch(t.TempDir(), getenv, inst); why == "" {
		t.Error("GOTOOLCHAIN=go1.999.0 taken for no switch")
	}
	// with no user setting, the installation's go.env decides
	env["GOTOOLCHAIN"] = ""
	if why := goSwitch(dir, getenv, goInstall{release: inst.release, mode: "local", telemetry: "off"}); why != "" {
		t.Errorf("go.env GOTOOLCHAIN=local: %s", why)
	}
	if why := goSwitch(dir, getenv, goInstall{release: inst.release, mode: "auto", telemetry: "off"}); why == "" {
		t.Error("go.env GOTOOLCHAIN=auto: no switch for go 1.999")
	}
	if why := goSwitch(dir, getenv, goInstall{mode: "auto", telemetry: "off"}); why == "" {
		t.Error("an unknown installed release taken for no switch")
	}
}

// Whether go writes telemetry counters is held against go itself: with
// the user's configuration directory holding no mode, go version creates
// a counter file there; with the mode off it writes nothing. The fact
// reads the same directory.
func TestGoTelemetryAgreesWithGo(t *testing.T) {
	gobin := goTool(t)
	for _, mode := range []string{"", "off", "local"} {
		cfg := lingeringDir(t)
		if mode != "" {
			if err := os.MkdirAll(filepath.Join(cfg, "go", "telemetry"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(cfg, "go", "telemetry", "mode"), []byte(mode+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Setenv("XDG_CONFIG_HOME", cfg)
		t.Setenv("HOME", t.TempDir())
		got := telemetryMode()
		dir := t.TempDir()
		cmd := exec.Command(gobin, "version")
		cmd.Dir, cmd.Env = dir, append(goEnv(dir), "XDG_CONFIG_HOME="+cfg)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go version: %v %s", err, out)
		}
		var written []string
		_ = filepath.WalkDir(filepath.Join(cfg, "go", "telemetry"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Base(p) != "mode" {
				written = append(written, p)
			}
			return nil
		})
		why := goSwitch(dir, func(string) string { return "" }, goInstall{release: "go1.0.0", mode: "local", telemetry: got})
		if (len(written) > 0) != (why != "") {
			t.Errorf("mode %q: go wrote %q, the fact says %q", mode, written, why)
		}
	}
}

// lingeringDir is a temporary directory that go's telemetry child, which
// may outlive go version for a moment, can still be writing into when the
// test ends: its removal is retried.
func lingeringDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "nb-gotelemetry-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 50 {
			if err = os.RemoveAll(dir); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("remove %s: %v", dir, err)
	})
	return dir
}
