package fsfacts

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Toolchain implements policy.Facts: why prog, run in dir, does more than
// its read-only forms say — fetches and runs another release of itself
// that the project's files ask for, or writes its own records — or "".
// A version manager's shim on PATH does so for any program it stands for
// (shimOf). go does so for any command, go version included: its
// toolchain switch (go help toolchain) reads the go and toolchain lines of
// the go.work or go.mod above dir and, when they ask for a newer Go than
// the one installed, downloads that release and runs it; and unless its
// telemetry is off it writes counters below the user's configuration
// directory.
func (Disk) Toolchain(prog, dir string) string {
	if why := shimOf(prog, os.Getenv("PATH")); why != "" {
		return why
	}
	if prog != "go" {
		return ""
	}
	inst := installedGo()
	inst.telemetry = telemetryMode()
	return goSwitch(diskPath(dir), os.Getenv, inst)
}

// goInstall is what goSwitch knows of the installed go: its release
// (go1.26.8, "" when unknown), the GOTOOLCHAIN its root's go.env sets and
// the user's telemetry mode (off, local, on; "" when not known).
type goInstall struct{ release, mode, telemetry string }

// telemetryMode is the mode go telemetry keeps in the user's configuration
// directory: local when it was never set, "" when it cannot be told.
func telemetryMode() string {
	cfg, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(cfg, "go", "telemetry", "mode"))
	if errors.Is(err, fs.ErrNotExist) {
		return "local"
	}
	if err != nil {
		return ""
	}
	mode, _, _ := strings.Cut(strings.TrimSpace(string(b)), " ") // "on 2024-01-02"
	return mode
}

// goSwitch is Toolchain for go, with the environment and the installed
// go given. GOTOOLCHAIN comes, as go takes it, from the environment, the
// user's go env file, then the installation's go.env.
func goSwitch(dir string, getenv func(string) string, inst goInstall) string {
	if inst.telemetry != "off" {
		return "go records telemetry counters in the user's configuration directory (go telemetry off stops it)"
	}
	mode := getenv("GOTOOLCHAIN")
	if mode == "" {
		mode = goEnvFile(getenv)
	}
	if mode == "" {
		mode = inst.mode
	}
	switch mode {
	case "local", "path", "local+path":
		return "" // never fetches: the installed release, or one on PATH
	case "", "auto", "local+auto":
	default:
		return "GOTOOLCHAIN=" + mode + " may fetch a Go release"
	}
	if strings.Contains(getenv("GOFLAGS"), "modfile") {
		return "GOFLAGS names another go.mod"
	}
	var files []string
	switch w := getenv("GOWORK"); w {
	case "off":
	case "":
		if f := above(dir, "go.work"); f != "" {
			files = append(files, f)
		}
	default:
		files = append(files, w)
	}
	if f := above(dir, "go.mod"); f != "" {
		files = append(files, f)
	}
	if len(files) == 0 {
		return ""
	}
	local, ok := parseGoVersion(strings.TrimPrefix(inst.release, "go"))
	if !ok {
		return "the installed Go release is not known"
	}
	for _, f := range files {
		wants, err := goFileVersions(f)
		if err != nil {
			return "cannot read " + f
		}
		for _, w := range wants {
			v, ok := parseGoVersion(w)
			if !ok {
				return f + " asks for Go " + w + ", a release nb cannot compare"
			}
			if v.newer(local) {
				return f + " asks for Go " + w + ", newer than the installed " + inst.release + ": go would fetch and run it"
			}
		}
	}
	return ""
}

// above is the file named name in dir or its nearest parent, or "".
func above(dir, name string) string {
	for d := filepath.Clean(dir); ; {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
		up := filepath.Dir(d)
		if up == d || d == "." {
			return ""
		}
		d = up
	}
}

// goEnvFile is GOTOOLCHAIN as go env -w writes it in the user's go
// environment file ($GOENV, or go/env in the configuration directory).
func goEnvFile(getenv func(string) string) string {
	p := getenv("GOENV")
	if p == "off" {
		return ""
	}
	if p == "" {
		cfg, err := os.UserConfigDir()
		if err != nil {
			return ""
		}
		p = filepath.Join(cfg, "go", "env")
	}
	return envLine(p, "GOTOOLCHAIN")
}

// goFileVersions are the releases a go.mod or go.work asks for: its go
// line and its toolchain line (toolchain default asks for none). A
// directive of another shape is returned as it is, to be refused.
func goFileVersions(p string) ([]string, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] != "go" && fields[0] != "toolchain" {
			continue
		}
		if len(fields) != 2 {
			out = append(out, strings.Join(fields[1:], " "))
			continue
		}
		v := fields[1]
		if fields[0] == "toolchain" {
			if v == "default" {
				continue
			}
			v = strings.TrimPrefix(v, "go")
			if i := strings.IndexByte(v, '-'); i >= 0 {
				v = v[:i] // go1.22.1-custom: the release it names
			}
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// goVersion is a Go release as the toolchain switch orders them: 1.21
// (the language) < 1.21rc1 < 1.21.0 < 1.21.1.
type goVersion struct{ major, minor, stage, n int }

// Stages of a release within its minor version.
const (
	stageLang = iota
	stageBeta
	stageRC
	stageRelease
)

func parseGoVersion(s string) (goVersion, bool) {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		s = s[:i] // go1.26.8 X:boringcrypto
	}
	majorS, rest, _ := strings.Cut(s, ".")
	major, err := strconv.Atoi(majorS)
	if err != nil || major < 0 {
		return goVersion{}, false
	}
	v := goVersion{major: major}
	if rest == "" {
		return v, true
	}
	num := func(t string) (int, bool) {
		n, err := strconv.Atoi(t)
		return n, err == nil && n >= 0 && t != "" && (t == "0" || t[0] != '0')
	}
	i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	minorS, tail := rest, ""
	if i >= 0 {
		minorS, tail = rest[:i], rest[i:]
	}
	var ok bool
	if v.minor, ok = num(minorS); !ok {
		return goVersion{}, false
	}
	switch {
	case tail == "":
		v.stage = stageLang
	case strings.HasPrefix(tail, "."):
		v.stage = stageRelease
		v.n, ok = num(tail[1:])
	case strings.HasPrefix(tail, "rc"):
		v.stage = stageRC
		v.n, ok = num(tail[2:])
	case strings.HasPrefix(tail, "beta"):
		v.stage = stageBeta
		v.n, ok = num(tail[4:])
	default:
		ok = false
	}
	return v, ok
}

func (v goVersion) newer(than goVersion) bool {
	a := [4]int{v.major, v.minor, v.stage, v.n}
	b := [4]int{than.major, than.minor, than.stage, than.n}
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// installedGo reads the go on PATH from its root: the release in VERSION
// (go1.26.8) and the GOTOOLCHAIN of go.env (Debian's sets local).
func installedGo() goInstall {
	p, err := exec.LookPath("go")
	if err != nil {
		return goInstall{}
	}
	if p, err = filepath.EvalSymlinks(p); err != nil {
		return goInstall{}
	}
	root := filepath.Dir(filepath.Dir(p))
	if g := os.Getenv("GOROOT"); g != "" {
		root = g // go runs from the root GOROOT names
	}
	var inst goInstall
	if b, err := os.ReadFile(filepath.Join(root, "VERSION")); err == nil {
		first, _, _ := strings.Cut(string(b), "\n")
		inst.release = strings.TrimSpace(first)
	}
	inst.mode = envLine(filepath.Join(root, "go.env"), "GOTOOLCHAIN")
	return inst
}

// envLine is the value of NAME=value in a go environment file, or "".
func envLine(p, name string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+"="); ok {
			return v
		}
	}
	return ""
}

// shimOf says why prog, looked up in path, is the shim of a version
// manager that installs a missing release on first use — volta, and mise,
// whose shims fetch what a project's package.json, .tool-versions or
// mise.toml pins — or "". The lookup is only made when path names such a
// manager at all.
func shimOf(prog, path string) string {
	lower := strings.ToLower(path)
	if !strings.Contains(lower, "volta") && !strings.Contains(lower, "mise") {
		return ""
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue // relative entries are judged by the PATH fact
		}
		for _, p := range programFiles(filepath.Join(dir, prog)) {
			if fi, err := os.Stat(p); err != nil || fi.IsDir() || runtime.GOOS != "windows" && fi.Mode()&0o111 == 0 {
				continue
			}
			if m := shimManager(p); m != "" {
				return prog + " is " + m + "'s shim, which may fetch and run the release a project file pins"
			}
			return "" // the first found is the one the shell runs
		}
	}
	return ""
}

// programFiles are the files a shell may run for the program path p:
// p itself, and on Windows p with the usual program extensions.
func programFiles(p string) []string {
	if runtime.GOOS != "windows" {
		return []string{p}
	}
	return []string{p, p + ".exe", p + ".cmd", p + ".bat"}
}

// shimManager names the version manager whose shim p is: one in the
// manager's shim directory, or a link to its shim program, or "".
func shimManager(p string) string {
	slash := strings.ToLower(filepath.ToSlash(p))
	switch {
	case strings.Contains(slash, "/.volta/bin/") || strings.Contains(slash, "/volta/bin/"):
		return "volta"
	case strings.Contains(slash, "/mise/shims/"):
		return "mise"
	}
	if t, err := os.Readlink(p); err == nil {
		switch strings.TrimSuffix(strings.ToLower(filepath.Base(t)), ".exe") {
		case "volta-shim":
			return "volta"
		case "mise":
			return "mise"
		}
	}
	return ""
}
