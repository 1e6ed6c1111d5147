package redteam

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/testenv"
)

// longTailTraced are commands of the long tail (the manual grammars in
// policy's safe_<family>.go tables) that the policy allows, each run
// here, in nb's command environment, under strace: none may create,
// change, rename or delete a file or open a network connection. Programs
// not installed are left out.
var longTailTraced = []string{
	"man ls", "man -k socket", "whatis ls", "apropos socket", "help cd", "pr -2 -t README.md", "tsort deps.txt",
	"sum README.md", "shuf -n 1 README.md", "iconv -f latin1 -t utf-8 notes.txt", "basenc --base64 README.md",
	"col -b < README.md", "colrm 1 2 < README.md", "pathchk -p a/b", "hostid", "namei -l /usr/bin/ls", "lsattr README.md",
	"lsmem", "lsirq", "sysctl -a", "kill -l", "systemd-analyze calendar daily",
	"systemd-detect-virt", "systemd-path", "systemd-id128 boot-id", "busctl list", "dpkg-query -W", "apt-cache policy bash",
	"apt list --installed", "apt show bash", "apt-mark showmanual", "pip freeze", "pip show pip", "readelf -h /bin/ls",
	"objdump -h /bin/ls", "nm -D /bin/ls", "size /bin/ls", "modinfo ext4", "diff3 a.txt b.txt c.txt", "sdiff a.txt b.txt",
	"hd README.md", "dircolors -p", "getopt -o ab -- -a x", "ischroot", "manpath", "mcookie", "mountpoint /",
	"filefrag -v README.md", "zdump UTC", "prtstat 1", "slabtop -o", "utmpdump /var/log/wtmp", "fuser -v README.md", "mesg",
	"ldconfig -p", "run-parts --test /etc/cron.daily", "ssh-keygen -F github.com", "chrt -p 1", "taskset -p 1", "ionice -p 1", "choom -p 1",
	"prlimit --pid 1", "swapon --show", "tc qdisc", "bridge link", "docker --version", "sed --version", "tar --version",
	"make --help", "node --help", "python3 --help", "vim --version", "psql --version", "sqlite3 --version", "gzip --version",
	"ip -V",
}

// traceWrite matches a strace line that changed the file system or
// connected over the network.
var traceWrite = regexp.MustCompile(`(open|openat|creat)\(.*(O_WRONLY|O_RDWR|O_CREAT)|(mkdir|mkdirat|rename|renameat|renameat2|unlink|unlinkat|rmdir|link|linkat|symlink|symlinkat|truncate)\(|connect\(.*AF_INET`)

func TestLongTailTracedWriteNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("strace is Linux's")
	}
	strace := testenv.Tool(t, "strace")
	if testing.Short() {
		t.Skip("runs programs under strace")
	}
	if out, err := exec.Command(strace, "-o", filepath.Join(t.TempDir(), "probe"), "true").CombinedOutput(); err != nil {
		testenv.Missing(t, "strace cannot trace here: "+strings.TrimSpace(string(out)))
	}
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"README.md": "# x\nhello\n", "deps.txt": "a b\nb c\n", "notes.txt": "caf\xe9\n",
		"a.txt": "1\n2\n", "b.txt": "1\n3\n", "c.txt": "1\n4\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cc := policy.CommandContext{Cwd: dir, Home: testHome, Facts: policy.NoFacts{}}
	env := append(os.Environ(), host.NonInteractiveEnv...)
	for _, cmd := range longTailTraced {
		if d := decide(e, cmd, cc); d.Decision != policy.Allow {
			t.Errorf("%q is not allowed (%s)", cmd, strings.Join(d.Reasons, "; "))
			continue
		}
		prog := strings.Fields(cmd)[0]
		if _, err := exec.LookPath(prog); err != nil && prog != "help" && prog != "kill" {
			continue
		}
		log := filepath.Join(t.TempDir(), "trace")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		c := exec.CommandContext(ctx, strace, "-f", "-qq", "-o", log, "-e",
			"trace=open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,unlink,unlinkat,rmdir,link,linkat,symlink,symlinkat,truncate,connect",
			"bash", "-c", cmd)
		c.Dir, c.Env = dir, env
		_ = c.Run() // a query may fail here (no systemd, no such process); what it touched counts
		cancel()
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if !traceWrite.MatchString(line) || strings.Contains(line, "= -1 ") || strings.Contains(line, "O_TMPFILE") ||
				strings.Contains(line, `"/dev/null"`) || strings.Contains(line, `"/dev/tty"`) || strings.Contains(line, `"/proc/self/`) {
				continue
			}
			t.Errorf("%s changed something: %s", cmd, line)
		}
	}
}
