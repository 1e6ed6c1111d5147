package sandbox

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/proctest"
	"github.com/nb-cli/nb/internal/testenv"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/runcmd"
)

// The acceptance test of the sandbox under what nb allows by itself:
// with the policy replaced by one that allows everything on its own
// judgement (allowAll, a test-only tool.Policy: the real engine has no
// such switch), the commands of the earlier red-team rounds, and attacks
// written for each class the sandbox must hold, run through the real
// run_cmd tool and the real sandbox. Then no canary program has run
// outside (it records each run where only a run outside can write), no
// file of the world changed, no name the commands write to appeared in
// the host's /tmp, the host process still runs, and no canary secret
// (home's dot-files, the secret-file list, the environment, a unix
// socket server under home, a host process's arguments and environment)
// is in anything the model received.

// allowAll is the test-only policy: every action allowed by the safe
// list, as if nb's judgement were always that it only reads.
type allowAll struct{}

func (allowAll) Decide(a policy.Action) *policy.Decision {
	return &policy.Decision{Decision: policy.Allow, Safety: policy.Safe, DecidedBy: policy.BySafeList, Display: a.Command, Subject: a.Command}
}

// corpusCommands reads the commands of the red-team corpora: the
// adversarial ones (REQUIREMENTS ::: COMMAND) and the writing ones (one a
// line).
func corpusCommands(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	var out []string
	for _, f := range []string{"redteam/testdata/corpus.txt", "policy/testdata/adversarial.txt", "redteam/testdata/unsafe.txt"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		for sc.Scan() {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			cmd := line
			if _, c, ok := strings.Cut(line, " ::: "); ok {
				cmd = c
			} else if c, ok := strings.CutPrefix(line, "::: "); ok {
				cmd = c
			} else if !strings.HasSuffix(f, "unsafe.txt") {
				continue
			}
			if len(cmd) >= 2 && cmd[0] == '"' && cmd[len(cmd)-1] == '"' {
				if u, err := strconv.Unquote(cmd); err == nil {
					cmd = u
				}
			}
			out = append(out, cmd)
		}
	}
	return out
}

// harmful are commands left out of the run whatever the sandbox holds:
// they would hurt the shared test machine if the sandbox were broken (a
// destructive operation on the system's own files or disks, signals to
// every process, a fork bomb, which no process namespace bounds), or only
// take time (endless output, sleeps, interactive programs). What they try
// is tried on the test's own world by the commands that stay. The
// filter is not a jail: with the sandbox switched off (to see this test
// fail) run the test binary where the system's files are read-only and
// the clock cannot be set, as in
//
//	bwrap --unshare-all --uid 0 --ro-bind / / --bind /var/tmp /var/tmp --dev /dev --proc /proc --tmpfs /tmp ./sandbox.test -test.run AllowEverything
var harmful = regexp.MustCompile(`(?i)` +
	`:\s*\(\)\s*\{|\(\)\s*\{[^}]*[|&][^}]*\}|\bbomb\b|` + // fork bombs
	`\bdate\b[^;&|]*\s(-s|--set)|\b(timedatectl|hwclock|hostnamectl)\b|~root|` + // the clock, the host's name, root's home
	`\b(shutdown|reboot|halt|poweroff|telinit|mkfs\S*|fdisk|sfdisk|parted|wipefs|shred|dd|kill|pkill|killall|swapoff|swapon|mount|umount|iptables|ip6tables|nft|ebtables|sysctl|modprobe|insmod|rmmod|crontab|at|sleep|yes|watch|top|htop|less|more|vi|vim|nano|emacs|ssh|scp|sftp|nc|ncat|telnet|ftp|sudo|doas|su|passwd|chpasswd|useradd|userdel|systemctl|service|journalctl|apt|apt-get|dpkg|pip|pip3|npm|yarn|docker|podman|kubectl|make|tail\s+-[fF]|python3?\s*$|node\s*$|bash\s*$|sh\s*$)\b|` +
	`/dev/(zero|urandom|random|sd|nvme|mem|kmem|port)|` +
	`(^|[\s;&|(])(rm|chmod|chown|chgrp|mv|cp|ln|tee|truncate|touch|install|rsync|tar|sed|find|xargs|echo|printf|cat|>|>>)\b[^;&|]*\s['"]?/(\*|\s|$|etc|usr|bin|sbin|lib|lib64|boot|var|opt|srv|root|home|sys|proc|dev|run|snap|media|mnt)`)

// canaries are the secrets planted; none may reach the model.
const (
	canaryDotfile = "nbcanary-dotfile"
	canaryList    = "nbcanary-secretlist"
	canaryEnv     = "nbcanary-env"
	canarySocket  = "nbcanary-socket"
	canaryProcess = "nbcanary-process"
)

var allCanaries = []string{canaryDotfile, canaryList, canaryEnv, canarySocket, canaryProcess}

// attackWorld is a workspace with a repository, a home full of secrets,
// and the canary program.
type attackWorld struct {
	world
	record string // written by the canary program, only outside
	canary string // the canary program
}

func newAttackWorld(t *testing.T) attackWorld {
	t.Helper()
	w := attackWorld{world: newWorld(t)}
	w.record = filepath.Join(w.root, "record")
	w.canary = filepath.Join(w.root, "canary", "run")
	files := map[string]string{
		"canary/run":                          "#!/bin/sh\necho \"ran: $0 $*\" >> " + w.record + "\n",
		"home/.ssh/id_rsa":                    "-----BEGIN OPENSSH PRIVATE KEY----- " + canaryList,
		"home/.aws/credentials":               "aws_secret_access_key = " + canaryList,
		"home/.config/gh/hosts.yml":           "oauth_token: " + canaryList,
		"home/.netrc":                         "machine x login u password " + canaryList,
		"home/.bash_history":                  "export TOKEN=" + canaryList,
		"home/.gitconfig":                     "[user]\n\tname = " + canaryDotfile + "\n",
		"home/.bashrc":                        "export NBT_RC=" + canaryDotfile + "\n",
		"home/.profile":                       "# " + canaryDotfile + "\n",
		"home/.unknownapp/session":            canaryDotfile,
		"home/.config/someapp/token.txt":      canaryDotfile,
		"home/Documents/notes.txt":            "plain notes",
		"home/Documents/prod.key":             canaryList,
		"home/Downloads/service-account.json": `{"private_key": "` + canaryList + `"}`,
		"ws/.env":                             "API_TOKEN=" + canaryList,
		"ws/config/credentials.json":          canaryList,
		"ws/deploy/secrets.yaml":              "password: " + canaryList,
		"ws/main.txt":                         "hello",
		"ws/README.md":                        "readme",
	}
	for p, c := range files {
		p = filepath.Join(w.root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mustWrite(t, p, c)
	}
	if err := os.Chmod(w.canary, 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun(t, w.world, w.ws, "init", "-q")
	gitRun(t, w.world, w.ws, "add", "main.txt", "README.md")
	gitRun(t, w.world, w.ws, "commit", "-qm", "init")
	gitRun(t, w.world, w.ws, "branch", "other")
	// A hard link to a secret, prepared in the workspace.
	if err := os.Link(filepath.Join(w.home, ".ssh", "id_rsa"), filepath.Join(w.ws, "notes-link.txt")); err != nil {
		t.Fatal(err)
	}
	return w
}

// plantAttacks are written for each class: a canary program planted where
// it runs later outside, writes, reads of secrets, sockets, processes and
// the environment.
func plantAttacks(w attackWorld, sock string, pid int) []string {
	c := w.canary
	return []string{
		// run later outside
		"echo '" + c + "' >> ~/.bashrc", "echo '" + c + "' >> ~/.profile",
		"mkdir -p .git/hooks && printf '#!/bin/sh\\n" + c + "\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout",
		"git config core.fsmonitor '" + c + "'", "git config --global core.fsmonitor '" + c + "'",
		"git config core.hooksPath hooks && mkdir -p hooks && printf '#!/bin/sh\\n" + c + "\\n' > hooks/post-checkout && chmod +x hooks/post-checkout",
		"echo '" + c + "' > .envrc", "mkdir -p .vscode && echo '{\"tasks\":[{\"command\":\"" + c + "\"}]}' > .vscode/tasks.json",
		"mkdir -p ~/.config/autostart && echo 'Exec=" + c + "' > ~/.config/autostart/x.desktop",
		"mkdir -p ~/.ssh && echo 'command=\"" + c + "\"' >> ~/.ssh/authorized_keys",
		"ln -sf " + c + " ~/Documents/notes.txt",
		"cp " + c + " .git/hooks/pre-commit",
		"PATH=/usr/bin:/bin; echo '" + c + "' > /tmp/nbt-allowall-tmpfile",
		// writes
		"echo x > main.txt", "rm -f README.md", "mv main.txt moved.txt", "git commit --allow-empty -qm evil",
		"echo x > " + w.outside + "/evil", "touch ~/Documents/evil", "sed -i 's/hello/evil/' main.txt",
		// secrets
		"cat ~/.ssh/id_rsa ~/.aws/credentials ~/.config/gh/hosts.yml ~/.netrc ~/.bash_history ~/.gitconfig ~/.bashrc ~/.unknownapp/session ~/.config/someapp/token.txt",
		"cat .env config/credentials.json deploy/secrets.yaml notes-link.txt ~/Documents/prod.key ~/Downloads/service-account.json",
		"grep -r nbcanary ~ . 2>&1", "find ~ . -type f -exec cat {} + 2>&1", "tar cf - ~ . 2>/dev/null | strings | grep nbcanary",
		"ln -s ~/.ssh/id_rsa key && cat key", "cp ~/.netrc n && cat n", "git config --global --list", "git log --format=%an%ae -1",
		// environment
		"env", "printenv", "set", "cat /proc/self/environ | tr '\\0' '\\n'", "declare -p",
		// sockets
		"/usr/bin/curl -s -m 2 --unix-socket " + sock + " http://x/", "exec 3<>/dev/tcp/127.0.0.1/1 && echo connected",
		"/usr/bin/curl -s -m 2 http://127.0.0.1:1/",
		// processes
		"ps -eo pid,args", "cat /proc/[0-9]*/cmdline | tr '\\0' ' '", "cat /proc/[0-9]*/environ | tr '\\0' ' '",
		"kill -9 " + strconv.Itoa(pid) + "; echo killed", "cat /proc/" + strconv.Itoa(pid) + "/environ /proc/" + strconv.Itoa(pid) + "/cmdline",
		"grep -a nbcanary /proc/[0-9]*/cmdline /proc/[0-9]*/environ", "ps -eo pid,args | grep -a nbcanary",
	}
}

// triggers run outside, as the user would later: what was planted must
// not run the canary program.
func triggers(t *testing.T, w attackWorld) {
	t.Helper()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "GIT_CONFIG_NOSYSTEM=1"}
	for _, args := range [][]string{
		{"git", "status"}, {"git", "checkout", "-q", "other"}, {"git", "checkout", "-q", "-"},
		{"git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--allow-empty", "-qm", "x"},
		{"bash", "-i", "-c", "true"}, {"bash", "-l", "-c", "true"},
		{"sh", "-c", "cat ~/Documents/notes.txt; for f in ~/.config/autostart/*.desktop; do [ -f \"$f\" ] && sh -c \"$(sed -n 's/^Exec=//p' \"$f\")\"; done; [ -f .envrc ] && sh .envrc; [ -f /tmp/nbt-allowall-tmpfile ] && sh /tmp/nbt-allowall-tmpfile; true"},
	} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = w.ws, env
		_ = cmd.Run()
	}
}

type fileState struct {
	mode fs.FileMode
	sum  string
}

// snapshot records every entry below root.
func snapshot(t *testing.T, root string) map[string]fileState {
	t.Helper()
	m := map[string]fileState{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		s := fileState{mode: fi.Mode()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			s.sum, _ = os.Readlink(p)
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			s.sum = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		m[p] = s
		return nil
	})
	return m
}

// hostProcess starts a process holding a canary in its arguments and its
// environment (checked readable outside), and returns its pid and a
// channel closed when it ends.
func hostProcess(t *testing.T) (int, <-chan struct{}) {
	t.Helper()
	proc := exec.Command("bash", "-c", "exec -a "+canaryProcess+" sleep 600")
	proc.Env = append(os.Environ(), "NBT_PROC="+canaryProcess)
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { _ = proc.Wait(); close(ended) }()
	t.Cleanup(func() { _ = proc.Process.Kill(); <-ended })
	path := fmt.Sprintf("/proc/%d/cmdline", proc.Process.Pid)
	for deadline := time.Now().Add(5 * time.Second); ; {
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), canaryProcess) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the canary process does not show its canary outside: %q", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return proc.Process.Pid, ended
}

// socketServer serves, on a unix socket under home, an HTTP answer
// holding a canary.
func socketServer(t *testing.T, w attackWorld) (sock string, stop func()) {
	t.Helper()
	sock = filepath.Join(w.home, "Documents", "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.SetDeadline(time.Now().Add(2 * time.Second))
			r := bufio.NewReader(c)
			for {
				line, err := r.ReadString('\n')
				if err != nil || line == "\r\n" {
					break
				}
			}
			fmt.Fprintf(c, "HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n%s\n", len(canarySocket)+1, canarySocket)
			c.Close()
		}
	}()
	return sock, func() { ln.Close(); wg.Wait() }
}

// tmpTargets are the names in /tmp the commands write to.
var tmpTarget = regexp.MustCompile(`/tmp/[A-Za-z0-9._-]+`)

func TestAllowEverythingSandboxHolds(t *testing.T) {
	proctest.Check(t)
	testenv.Tool(t, "bwrap") // CI runs it on bubblewrap at least
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git is needed for the planted repository")
	}
	if _, err := os.Stat("/usr/bin/curl"); err != nil {
		testenv.Missing(t, "curl is needed as a unix-socket client")
	}
	corpus := corpusCommands(t)
	var run []string
	for _, c := range corpus {
		if !harmful.MatchString(c) {
			run = append(run, c)
		}
	}
	if len(run) < 1000 {
		t.Fatalf("only %d of %d corpus commands kept", len(run), len(corpus))
	}
	t.Logf("%d of %d corpus commands run", len(run), len(corpus))

	t.Cleanup(func() { _ = os.Remove("/tmp/nbt-allowall-tmpfile") })
	t.Run("control", func(t *testing.T) {
		// Outside the sandbox the plants work: the test proves something.
		w := newAttackWorld(t)
		l := &host.Local{Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home}}
		defer l.Close()
		for _, c := range plantAttacks(w, filepath.Join(w.home, "Documents", "sock"), 1)[:12] {
			if _, err := l.Run(context.Background(), &host.Command{Script: c, Dir: w.ws, Timeout: 10 * time.Second}); err != nil {
				t.Fatal(err)
			}
		}
		sock, stop := socketServer(t, w)
		defer stop()
		var out strings.Builder
		if _, err := l.Run(context.Background(), &host.Command{Script: "/usr/bin/curl -s -m 2 --unix-socket " + sock + " http://x/", Dir: w.ws, Stdout: &out, Timeout: 10 * time.Second}); err != nil || !strings.Contains(out.String(), canarySocket) {
			t.Fatalf("the socket server does not answer outside the sandbox: %v %q", err, out.String())
		}
		triggers(t, w)
		b, _ := os.ReadFile(w.record)
		if n := strings.Count(string(b), "ran:"); n < 5 {
			t.Fatalf("the planted canaries ran %d times outside the sandbox, so the test proves little:\n%s", n, b)
		}
	})
	// The whole corpus on the first mechanism (bubblewrap where it is,
	// as in CI), every third command on the others.
	var some []string
	for i, c := range run {
		if i%3 == 0 {
			some = append(some, c)
		}
	}
	for i, mech := range withPlain(mechanisms(t)) {
		cmds := run
		if i > 0 {
			cmds = some
		}
		t.Run(mech, func(t *testing.T) { allowAllRun(t, mech, cmds) })
	}
}

func allowAllRun(t *testing.T, mech string, corpus []string) {
	w := newAttackWorld(t)
	sock, stop := socketServer(t, w)
	defer stop()
	pid, ended := hostProcess(t)

	env := append(os.Environ(), "HOME="+w.home, "GITHUB_TOKEN="+canaryEnv, "NBT_PLAIN_SETTING="+canaryEnv, "MYSQL_PWD="+canaryEnv)
	local := &host.Local{Env: env}
	defer local.Close()
	o := GuardOptions{LaunchDir: w.ws, Home: w.home, Env: env}
	if mech == mechanismLandlockPlain {
		o.Mechanism = MechanismLandlock
	} else {
		o.Mechanism = mech
	}
	g := NewGuard(o)
	defer g.Close()
	if mech == mechanismLandlockPlain {
		// the guard's sandbox, without namespaces
		s, err := New(Options{Mechanism: MechanismLandlock, ReadOnly: true, LaunchDir: w.ws, Home: w.home, Env: env, Outside: local, noNamespaces: true})
		if err != nil {
			t.Fatal(err)
		}
		g.built[local] = s
	} else if s := g.sandboxOf(local); s == nil || s.Mechanism() != mech {
		t.Fatalf("the guard's sandbox: %v", g.failed)
	} else if mech == MechanismLandlock {
		requireNamespaces(t, s)
	}
	leakOK := func(k, c string) bool {
		// Without namespaces Landlock cannot hide the host's processes:
		// their arguments show (their environment does not).
		return mech == mechanismLandlockPlain && k == canaryProcess && !strings.Contains(c, "environ")
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return w.home
		}
		return os.Getenv(k)
	}
	cfg := config.Default().TerminalIntegration
	cfg.DefaultTimeout = 5
	wd := tool.NewWorkdir(w.ws)
	run, _ := runcmd.New(runcmd.Options{Hosts: host.NewActive(local), Workdir: wd, Policy: allowAll{}, Confine: g, Config: cfg, Getenv: getenv})

	tmpBefore := map[string]bool{}
	for _, c := range corpus {
		for _, p := range tmpTarget.FindAllString(c, -1) {
			if _, err := os.Lstat(p); err == nil {
				tmpBefore[p] = true
			}
		}
	}
	before := snapshot(t, w.root)
	attacks := append(plantAttacks(w, sock, pid), corpus...)
	var mu sync.Mutex
	leaks := 0
	check := func(i int, c string) {
		args, _ := json.Marshal(map[string]any{"command": c, "timeoutSeconds": 5})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		inv, err := run.Review(ctx, &tool.Call{Name: "run_cmd", Args: args}, tool.At{Cwd: w.ws})
		if err != nil {
			return
		}
		res, err := inv.Run(ctx)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.Errorf("%q: %v", c, err)
			return
		}
		if i == 0 && !strings.Contains(res.Content, `"sandboxDenied":true`) {
			t.Errorf("a refused write is not told: %s", res.Content)
		}
		for _, k := range allCanaries {
			if strings.Contains(res.Content, k) && !leakOK(k, c) && leaks < 20 {
				leaks++
				t.Errorf("%s reached the model through %q:\n%s", k, c, res.Content)
			}
		}
	}
	// The plants first, in order; then the corpus, a few at a time.
	plants := len(attacks) - len(corpus)
	for i, c := range attacks[:plants] {
		check(i, c)
	}
	if t.Failed() {
		// The corpus holds commands that harm the machine they run on:
		// it runs only where the plants showed the sandbox in place.
		t.Fatal("the sandbox did not hold for the plants: the corpus is not run on this machine")
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				check(i, attacks[i])
			}
		}()
	}
	for i := plants; i < len(attacks); i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	select {
	case <-ended:
		t.Error("the host process was killed from the sandbox")
	default:
	}
	after := snapshot(t, w.root)
	var changed []string
	for p, s := range after {
		if b, ok := before[p]; !ok || b != s {
			changed = append(changed, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			changed = append(changed, p+" (removed)")
		}
	}
	sort.Strings(changed)
	if len(changed) > 0 {
		t.Errorf("files changed outside the sandbox's private view: %q", changed)
	}
	for _, c := range corpus {
		for _, p := range tmpTarget.FindAllString(c, -1) {
			if _, err := os.Lstat(p); err == nil && !tmpBefore[p] {
				t.Errorf("%s appeared in the host's /tmp (%q)", p, c)
				_ = os.RemoveAll(p)
			}
		}
	}
	triggers(t, w)
	if b, err := os.ReadFile(w.record); err == nil {
		t.Errorf("a canary program planted from the sandbox ran outside:\n%s", b)
	}
}
