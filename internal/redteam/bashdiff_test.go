package redteam

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/testenv"
)

// Commands that really run (with PATH still the shim directory) so the
// commands they start are seen too. Everything else is a recording shim.
var passthrough = []string{"bash", "sh", "dash", "env", "timeout", "nice", "nohup", "xargs", "stdbuf",
	"setsid", "ionice", "taskset", "flock", "chrt", "find", "unshare", "strace"}

// Names always shimmed, whatever the analyser reports.
var alwaysShim = []string{"rm", "curl", "wget", "id", "cat", "ls", "git", "sudo", "doas", "su", "nc", "python3",
	"python", "perl", "node", "ruby", "sed", "awk", "grep", "cp", "mv", "chmod", "chown", "dd", "mkfs", "touch",
	"tee", "head", "tail", "echo", "printf", "test", "ssh", "scp", "rsync", "make", "npm", "go", "sleep", "yes",
	"true", "false", "date", "ps", "du", "wc", "file", "tar", "zip", "vim", "less", "man", "sort", "uniq", "jq",
	"base64", "xxd", "diff", "mkdir", "ln", "install", "truncate", "shred", "wipefs", "fdisk", "watch", "chroot",
	"nsenter", "parallel", "socat", "telnet", "ping", "dig", "host", "docker", "kubectl", "systemctl", "mount",
	"kill", "pkill", "reboot", "shutdown", "crontab", "tree", "stat", "md5sum", "sha256sum", "realpath",
	"readlink", "basename", "dirname", "uname", "whoami", "pwd", "hostname", "journalctl", "dmesg", "dpkg",
	"getent", "ss", "lsof", "zsh", "ksh", "mkswap", "sfdisk", "parted", "gdisk", "blkdiscard", "mktemp",
	"mkfifo", "mknod", "unlink", "rmdir", "trash", "gawk", "mawk", "nawk", "rg", "fgrep", "egrep", "strings",
	"od", "hexdump", "cut", "tr", "paste", "nl", "tac", "rev", "column", "fold", "cmp", "comm", "join", "look"}

// A shim records its name and arguments (unit-separated, record-separated)
// in one write, and either exits 0 or execs the real program.
func shimScript(real string) string {
	rec := `printf -v r '%s\x1f' "${BASH_SOURCE[0]##*/}" "$PWD" "$@"; printf '%s\x1e' "$r" >> "$NB_SHIM_LOG"` + "\n"
	if real != "" {
		return "#!/bin/bash\n" + rec + "exec " + real + ` "$@"` + "\n"
	}
	return "#!/bin/bash\n" + rec + "exit 0\n"
}

var shimName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)
var notFound = regexp.MustCompile(`(?m): ([^:\n]+): command not found$`)

type execRecord struct {
	name string
	dir  string
	args []string
}

func bwrapUsable(t *testing.T) string {
	t.Helper()
	bw := testenv.Tool(t, "bwrap")
	if _, err := os.Stat("/bin/bash"); err != nil {
		testenv.Missing(t, "no /bin/bash")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, bw, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "/bin/true").CombinedOutput(); err != nil {
		testenv.Missing(t, fmt.Sprintf("bwrap does not work here: %v %s", err, out))
	}
	return bw
}

// Inside the sandbox every run sees the same paths.
const (
	sandboxRunDir = "/tmp/nbrun"
	sandboxShims  = "/tmp/nbshims"
	sandboxHome   = sandboxRunDir + "/work/home"
)

// sandboxRun runs cmd with bash in a bubblewrap sandbox: read-only system,
// no network, no capabilities, only the run directory writable, PATH the
// shim directory. It returns what the shims recorded and the names bash
// could not find.
func sandboxRun(t *testing.T, bw, shims, run, cmd string) ([]execRecord, []string, error) {
	t.Helper()
	if err := os.RemoveAll(run); err != nil {
		return nil, nil, err
	}
	home := filepath.Join(run, "work", "home")
	for _, d := range []string{home, filepath.Join(home, ".ssh"), filepath.Join(run, "work", "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range []string{"a", "x", "f", "list.txt", "README.md", "src/main.go"} {
		if err := os.WriteFile(filepath.Join(run, "work", f), []byte("x\n"), 0o644); err != nil {
			return nil, nil, err
		}
	}
	log := filepath.Join(run, "log")
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, bw,
		"--ro-bind", "/", "/", "--tmpfs", "/tmp", "--dev", "/dev", "--proc", "/proc",
		"--bind", run, sandboxRunDir, "--ro-bind", shims, sandboxShims,
		"--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "--new-session",
		"--chdir", sandboxRunDir+"/work",
		"/bin/bash", "-c", cmd)
	c.Env = []string{"PATH=" + sandboxShims, "HOME=" + sandboxHome, "NB_SHIM_LOG=" + sandboxRunDir + "/log", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "FUNCNEST=50"}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	c.Stdin = nil
	_ = c.Run() // the exit status of the command does not matter
	if ctx.Err() != nil {
		return nil, nil, fmt.Errorf("timed out")
	}
	data, err := os.ReadFile(log)
	if err != nil {
		return nil, nil, err
	}
	var recs []execRecord
	for _, r := range strings.Split(string(data), "\x1e") {
		if r == "" {
			continue
		}
		f := strings.Split(strings.TrimSuffix(r, "\x1f"), "\x1f")
		if len(f) < 2 {
			continue
		}
		recs = append(recs, execRecord{name: f[0], dir: f[1], args: f[2:]})
	}
	var missing []string
	for _, m := range notFound.FindAllStringSubmatch(stderr.String(), -1) {
		missing = append(missing, unquoteBash(m[1]))
	}
	return recs, missing, nil
}

// leafModel is what the analyser claims runs.
type leafModel struct {
	names map[string]bool
	// argvs holds, per name, the argument lists of fully static leaves; a
	// name in loose has a leaf whose arguments are not known exactly.
	argvs map[string][][]string
	loose map[string]bool
	// dirs holds, per name, the directories its leaves may run in; a name
	// in anywhere has a leaf whose directory is unknown.
	dirs     map[string]map[string]bool
	anywhere map[string]bool
}

// model returns the analyser's claim, or ok=false when it does not claim
// to know (parse error, unknown parts, dynamic command names).
func model(a *shellparse.Analysis) (m leafModel, ok bool) {
	if a.Err != nil || len(a.Unknown) > 0 || len(a.Recursive) > 0 {
		return m, false
	}
	m = leafModel{names: map[string]bool{}, argvs: map[string][][]string{}, loose: map[string]bool{}, dirs: map[string]map[string]bool{}, anywhere: map[string]bool{}}
	for _, l := range a.Leaves {
		if l.Name() == "" || len(l.Unknown) > 0 {
			return m, false
		}
		b := l.Base()
		if b == "source" || b == "." {
			// What a sourced file runs is not the analyser's to know;
			// the policy never treats source as safe.
			return m, false
		}
		m.names[b] = true
		if l.Dir.Unknown || l.Via == "find -execdir" {
			m.anywhere[b] = true
		}
		if m.dirs[b] == nil {
			m.dirs[b] = map[string]bool{}
		}
		for _, d := range l.Dir.Paths {
			m.dirs[b][d] = true
		}
		static := !l.ArgsAppended && !strings.Contains(l.Via, "find") && !strings.Contains(l.Via, "xargs")
		var args []string
		for _, w := range l.Args() {
			if !w.Static() || strings.Contains(w.Text, "{}") {
				static = false
			}
			args = append(args, w.Text)
		}
		if static {
			m.argvs[b] = append(m.argvs[b], args)
		} else {
			m.loose[b] = true
		}
	}
	return m, true
}

func sameArgs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBashDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every corpus command under bash")
	}
	bw := bwrapUsable(t)
	base := t.TempDir()
	shims := filepath.Join(base, "shims")
	home := sandboxHome
	if err := os.MkdirAll(shims, 0o755); err != nil {
		t.Fatal(err)
	}

	cases := loadCorpus(t)
	names := map[string]bool{}
	for _, n := range alwaysShim {
		names[n] = true
	}
	for _, n := range passthrough {
		names[n] = true
	}
	analyses := make([]*shellparse.Analysis, len(cases))
	for i, c := range cases {
		a := shellparse.Analyse(c.command, shellparse.Options{Home: home, Cwd: sandboxRunDir + "/work", Programs: cmdbase.Programs{}})
		analyses[i] = a
		for _, l := range a.Leaves {
			if shimName.MatchString(l.Base()) {
				names[l.Base()] = true
			}
		}
	}
	isPass := map[string]bool{}
	for _, n := range passthrough {
		isPass[n] = true
	}
	for n := range names {
		real := ""
		if isPass[n] {
			if p, err := exec.LookPath(n); err == nil {
				real = p
			}
		}
		if err := os.WriteFile(filepath.Join(shims, n), []byte(shimScript(real)), 0o755); err != nil {
			t.Fatal(err)
		}
	}

	type job struct {
		c *corpusCase
		m leafModel
	}
	seen := map[string]bool{}
	compared, punted := 0, 0
	var jobs []job
	for i, c := range cases {
		if seen[c.command] || strings.ContainsRune(c.command, 0) {
			continue
		}
		seen[c.command] = true
		m, ok := model(analyses[i])
		if !ok {
			punted++
			continue
		}
		jobs = append(jobs, job{c, m})
	}
	type result struct {
		recs    []execRecord
		missing []string
		err     error
	}
	results := make([]result, len(jobs))
	const workers = 3
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			dir := filepath.Join(base, fmt.Sprintf("run%d", w))
			for i := w; i < len(jobs); i += workers {
				r := &results[i]
				r.recs, r.missing, r.err = sandboxRun(t, bw, shims, dir, jobs[i].c.command)
			}
		}(w)
	}
	wg.Wait()
	type problem struct{ key, msg string }
	var problems []problem
	for i, j := range jobs {
		c, m := j.c, j.m
		recs, missing, err := results[i].recs, results[i].missing, results[i].err
		if err != nil {
			t.Logf("%s: %v", c, err)
			continue
		}
		compared++
		for _, name := range missing {
			if !m.names[name] && !m.names[filepath.Base(name)] {
				problems = append(problems, problem{"diff:" + c.command, fmt.Sprintf("%s: bash tried to run %q, which the analyser does not report (it reports %v)", c, name, keys(m.names))})
			}
		}
		for _, r := range recs {
			if !m.names[r.name] {
				problems = append(problems, problem{"diff:" + c.command, fmt.Sprintf("%s: bash ran %s %q, which the analyser does not report (it reports %v)", c, r.name, r.args, keys(m.names))})
				continue
			}
			if !m.anywhere[r.name] && !m.dirs[r.name][r.dir] {
				problems = append(problems, problem{"dir:" + c.command, fmt.Sprintf("%s: bash ran %s in %s, the analyser believes it runs in %v", c, r.name, r.dir, keys(m.dirs[r.name]))})
			}
			if m.loose[r.name] {
				continue
			}
			match := false
			for _, want := range m.argvs[r.name] {
				if sameArgs(want, r.args) {
					match = true
					break
				}
			}
			if !match {
				problems = append(problems, problem{"diff:" + c.command, fmt.Sprintf("%s: bash ran %s %q, the analyser believes the arguments are %q", c, r.name, r.args, m.argvs[r.name])})
			}
		}
	}
	for _, p := range problems {
		reportBypass(t, p.key, "DIFFERENTIAL: "+p.msg)
	}
	t.Logf("%d commands compared with bash, %d left out because the analyser reports them as not fully known", compared, punted)
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// unquoteBash decodes the $'…' form bash uses for odd names in its error
// messages.
func unquoteBash(s string) string {
	body, ok := strings.CutPrefix(s, "$'")
	if !ok || !strings.HasSuffix(body, "'") {
		return s
	}
	body = strings.TrimSuffix(body, "'")
	var b []byte
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b = append(b, c)
			continue
		}
		i++
		switch e := body[i]; {
		case e >= '0' && e <= '7':
			v, n := 0, 0
			for n < 3 && i < len(body) && body[i] >= '0' && body[i] <= '7' {
				v = v*8 + int(body[i]-'0')
				i++
				n++
			}
			i--
			b = append(b, byte(v))
		case e == 'x':
			v, n := 0, 0
			for n < 2 && i+1 < len(body) && strings.IndexByte("0123456789abcdefABCDEF", body[i+1]) >= 0 {
				i++
				d := body[i]
				switch {
				case d >= 'a':
					d = d - 'a' + 10
				case d >= 'A':
					d = d - 'A' + 10
				default:
					d -= '0'
				}
				v = v*16 + int(d)
				n++
			}
			b = append(b, byte(v))
		default:
			m := map[byte]byte{'n': '\n', 't': '\t', 'v': '\v', 'f': '\f', 'r': '\r', 'e': 0x1b, 'E': 0x1b, 'a': 7, 'b': 8}
			if r, ok := m[e]; ok {
				b = append(b, r)
			} else {
				b = append(b, e)
			}
		}
	}
	return string(b)
}
