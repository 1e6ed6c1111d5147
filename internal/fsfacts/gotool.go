package fsfacts

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// GoLocal implements policy.GoFacts: the go command started in dir (go
// version, go env NAME) only prints when it selects no other toolchain
// (cmd/go/internal/toolchain.Select: GOTOOLCHAIN as the environment, the
// user's go env file and GOROOT/go.env set it, and with auto or path the
// go and toolchain lines of the go.work or go.mod governing dir) and
// records no telemetry counters (the telemetry mode is off). Anything
// that cannot be read is reported.
func (d Disk) GoLocal(dir string) string {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "go is not found on PATH"
	}
	if real, err := filepath.EvalSymlinks(goBin); err == nil {
		goBin = real
	}
	root := filepath.Dir(filepath.Dir(goBin))
	if g := os.Getenv("GOROOT"); g != "" {
		root = g
	}
	local := firstLine(filepath.Join(root, "VERSION"))
	if !strings.HasPrefix(local, "go") {
		return "the installed go's version cannot be read"
	}
	cfg, err := os.UserConfigDir()
	if err != nil {
		return "the go configuration directory is not known"
	}
	if mode := firstField(filepath.Join(cfg, "go", "telemetry", "mode")); mode != "off" {
		return "go records telemetry counters in " + filepath.Join(cfg, "go", "telemetry") + " (go telemetry off stops it)"
	}
	envFile := os.Getenv("GOENV")
	if envFile == "" {
		envFile = filepath.Join(cfg, "go", "env")
	}
	tc, ok := os.LookupEnv("GOTOOLCHAIN")
	if !ok {
		tc, ok = envValue(envFile, "GOTOOLCHAIN")
	}
	if !ok {
		tc, _ = envValue(filepath.Join(root, "go.env"), "GOTOOLCHAIN")
	}
	switch tc {
	case "local":
		return ""
	case "auto", "path", "local+auto", "local+path":
	default:
		return "GOTOOLCHAIN=" + tc + " may select another toolchain"
	}
	if os.Getenv("GO111MODULE") == "off" {
		return ""
	}
	file := ""
	switch w := os.Getenv("GOWORK"); w {
	case "off":
	case "":
		file = findUp(dir, "go.work")
	default:
		file = w
	}
	if file == "" {
		file = findUp(dir, "go.mod")
	}
	if file == "" {
		return ""
	}
	f, err := os.Open(file)
	if err != nil {
		return file + " cannot be read"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || fields[0] != "go" && fields[0] != "toolchain" {
			continue
		}
		v := strings.TrimPrefix(fields[1], "go")
		if fields[0] == "toolchain" && fields[1] == "default" {
			continue
		}
		if c, ok := compareGo(v, strings.TrimPrefix(local, "go")); !ok || c > 0 {
			return filepath.Base(file) + " asks for go " + v + ", newer than the installed " + local + ": go would download it"
		}
	}
	if sc.Err() != nil {
		return file + " cannot be read"
	}
	return ""
}

// findUp is the file name in dir or the nearest directory above it.
func findUp(dir, name string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func firstLine(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(line)
}

func firstField(p string) string {
	f := strings.Fields(firstLine(p))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// envValue reads NAME=value from a go env file.
func envValue(p, name string) (string, bool) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+"="); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// compareGo compares two go versions as cmd/go's gover does for the
// forms 1.N, 1.N.P, 1.NrcK and 1.NbetaK (a language version 1.N is
// before 1.N's prereleases and 1.N.0); ok is false for any other form.
func compareGo(x, y string) (int, bool) {
	px, okx := parseGo(x)
	py, oky := parseGo(y)
	if !okx || !oky {
		return 0, false
	}
	for i := range px {
		if px[i] != py[i] {
			if px[i] < py[i] {
				return -1, true
			}
			return 1, true
		}
	}
	return 0, true
}

// parseGo gives major, minor, kind (0 language, 1 beta, 2 rc, 3
// release), prerelease number and patch.
func parseGo(v string) ([5]int, bool) {
	var out [5]int
	major, rest, ok := strings.Cut(v, ".")
	if !ok {
		return out, false
	}
	n, err := strconv.Atoi(major)
	if err != nil {
		return out, false
	}
	out[0] = n
	minor := rest
	patch := ""
	if m, p, ok := strings.Cut(rest, "."); ok {
		minor, patch = m, p
	}
	kind, pre := 0, 0
	for _, k := range []struct {
		s string
		v int
	}{{"rc", 2}, {"beta", 1}} {
		if m, p, ok := strings.Cut(minor, k.s); ok {
			n, err := strconv.Atoi(p)
			if err != nil {
				return out, false
			}
			minor, kind, pre = m, k.v, n
		}
	}
	n, err = strconv.Atoi(minor)
	if err != nil {
		return out, false
	}
	out[1] = n
	if patch != "" {
		if kind != 0 {
			return out, false
		}
		p, err := strconv.Atoi(patch)
		if err != nil {
			return out, false
		}
		kind, out[4] = 3, p
	}
	out[2], out[3] = kind, pre
	return out, true
}
