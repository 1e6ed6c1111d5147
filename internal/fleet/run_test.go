package fleet

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/nb-cli/nb/internal/fleet/fleettest"
	"github.com/nb-cli/nb/internal/host/hosttest"
	"github.com/nb-cli/nb/internal/host/ssh/sshtest"
	"github.com/nb-cli/nb/internal/testenv"
)

// testFleet is a fleet of real OpenSSH "hosts" on loopback: web-01 …
// web-10 (one sshd on ten ports), badkey (its known_hosts entry is
// another key), jumped (reached through web-01 with ProxyJump), down
// (nothing listens) and hung (accepts and never speaks SSH).
type testFleet struct {
	srv   *sshtest.Server
	inv   *Inventory
	ports map[string]int
	dir   string
}

func startFleet(t *testing.T) *testFleet {
	t.Helper()
	srv := sshtest.StartPorts(t, 12)
	dir := t.TempDir()
	tf := &testFleet{srv: srv, ports: map[string]int{}, dir: dir}
	var kh, cfg bytes.Buffer
	line := func(port int, key gossh.PublicKey) {
		fmt.Fprintf(&kh, "[127.0.0.1]:%d %s", port, gossh.MarshalAuthorizedKey(key))
	}
	common := fmt.Sprintf("  HostName 127.0.0.1\n  User %s\n  IdentityFile %s\n  UserKnownHostsFile %s\n  StrictHostKeyChecking yes\n",
		srv.User, srv.KeyFile, filepath.Join(dir, "known_hosts"))
	for i := 0; i < 10; i++ {
		name := fmt.Sprintf("web-%02d", i+1)
		tf.ports[name] = srv.Ports[i]
		line(srv.Ports[i], srv.HostKey)
		fmt.Fprintf(&cfg, "Host %s\n  Port %d\n%s", name, srv.Ports[i], common)
	}
	// badkey: the server's key is not the one known_hosts holds.
	other, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, "other")).CombinedOutput()
	if err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, other)
	}
	pub, _ := os.ReadFile(filepath.Join(dir, "other.pub"))
	otherKey, _, _, _, err := gossh.ParseAuthorizedKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	tf.ports["badkey"] = srv.Ports[10]
	line(srv.Ports[10], otherKey)
	fmt.Fprintf(&cfg, "Host badkey\n  Port %d\n%s", srv.Ports[10], common)
	tf.ports["jumped"] = srv.Ports[11]
	line(srv.Ports[11], srv.HostKey)
	fmt.Fprintf(&cfg, "Host jumped\n  Port %d\n  ProxyJump web-01\n%s", srv.Ports[11], common)
	// jumped2: two hops, the second one a raw user@host:port, which the
	// configuration resolves too (a pattern: no host of its own).
	fmt.Fprintf(&cfg, "Host 127.0.0.?\n%s", common)
	fmt.Fprintf(&cfg, "Host jumped2\n  Port %d\n  ProxyJump web-01,%s@127.0.0.1:%d\n%s", srv.Ports[11], srv.User, srv.Ports[1], common)
	// down: a port nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	downPort := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	fmt.Fprintf(&cfg, "Host down\n  Port %d\n%s", downPort, common)
	// hung: accepts, says nothing.
	hung, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := hung.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		hung.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	fmt.Fprintf(&cfg, "Host hung\n  Port %d\n%s", hung.Addr().(*net.TCPAddr).Port, common)
	write(t, filepath.Join(dir, "known_hosts"), kh.String())
	write(t, filepath.Join(dir, "config"), cfg.String())
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: filepath.Join(dir, "config"), Home: srv.Home, LocalUser: srv.User}})
	if err != nil {
		t.Fatal(err)
	}
	tf.inv = inv
	return tf
}

func (tf *testFleet) fleet(t *testing.T) *Fleet {
	f := New(tf.inv, Options{ConnectTimeout: 4 * time.Second, Home: tf.srv.Home, OutputRoot: filepath.Join(tf.dir, "outputs")})
	t.Cleanup(func() { f.Close() })
	return f
}

// remote counts the processes whose command line holds s (the sshd
// "hosts" run on this machine).
func remote(t *testing.T, s string) int {
	t.Helper()
	out, _ := exec.Command("pgrep", "-f", "-c", s).Output()
	var n int
	fmt.Sscan(string(out), &n)
	return n
}

func TestFleetRun(t *testing.T) {
	tf := startFleet(t)
	f := tf.fleet(t)
	hosts, err := tf.inv.Select("web-*,badkey,jumped*,down,hung")
	if err != nil {
		t.Fatal(err)
	}
	if len(hosts) != 15 {
		t.Fatalf("%d hosts selected", len(hosts))
	}
	script := fmt.Sprintf(`echo hello from the fleet
p=${SSH_CONNECTION##* }
if [ "$p" = %d ]; then echo odd one; fi
if [ "$p" = %d ]; then echo broken >&2; exit 3; fi
if [ "$p" = %d ]; then sleep 30.4711; fi
true`, tf.ports["web-03"], tf.ports["web-05"], tf.ports["web-10"])
	var progress []Progress
	var pmu sync.Mutex
	res := f.Run(context.Background(), hosts, Request{Command: script, Timeout: 3 * time.Second, Progress: func(p Progress) {
		pmu.Lock()
		progress = append(progress, p)
		pmu.Unlock()
	}})
	want := Summary{Total: 15, OK: 10, Failed: 1, Unreachable: 2, Refused: 1, TimedOut: 1}
	if res.Summary != want {
		t.Fatalf("summary %+v, want %+v\n%s", res.Summary, want, res.JSON())
	}
	if len(progress) != 15 || progress[14].Done != 15 || progress[14].Total != 15 {
		t.Errorf("progress %+v", progress)
	}
	g := res.Groups[0]
	if wantHosts := []string{"jumped", "jumped2", "web-01", "web-02", "web-04", "web-06", "web-07", "web-08", "web-09"}; strings.Join(g.Hosts, ",") != strings.Join(wantHosts, ",") ||
		g.Stdout != "hello from the fleet\n" || g.ExitCode != 0 || g.Stderr != "" {
		t.Errorf("largest group %+v", g)
	}
	byHost := map[string]Group{}
	for _, g := range res.Groups {
		for _, h := range g.Hosts {
			byHost[h] = g
		}
	}
	if g := byHost["web-03"]; g.Stdout != "hello from the fleet\nodd one\n" || len(g.Hosts) != 1 {
		t.Errorf("web-03: %+v", g)
	}
	if g := byHost["web-05"]; g.ExitCode != 3 || g.Stderr != "broken\n" {
		t.Errorf("web-05: %+v", g)
	}
	if g := byHost["web-10"]; !g.TimedOut || !strings.Contains(g.Stderr, "[Killed - exceeded 3s timeout]") {
		t.Errorf("web-10: %+v", g)
	}
	if n := remote(t, "sleep 30.4711"); n != 0 {
		t.Errorf("%d remote processes outlived the timeout", n)
	}
	errs := map[string]string{}
	for _, e := range res.Errors {
		errs[e.Host] = e.Error
	}
	if len(errs) != 3 || !strings.HasPrefix(errs["badkey"], "refused: host key for ") || !strings.Contains(errs["badkey"], "does not match known_hosts") ||
		!strings.HasPrefix(errs["down"], "unreachable: ") || !strings.HasPrefix(errs["hung"], "unreachable: ") {
		t.Errorf("errors %q", errs)
	}
	// Every host's full output is saved.
	b, err := os.ReadFile(filepath.Join(res.OutputDir, "web-03.stdout"))
	if err != nil || string(b) != "hello from the fleet\nodd one\n" {
		t.Errorf("saved output %q, %v", b, err)
	}
	idx, _ := os.ReadFile(filepath.Join(res.OutputDir, "hosts.tsv"))
	if !strings.Contains(string(idx), "web-05\tfailed\t3\t") || !strings.Contains(string(idx), "badkey\trefused\t-1\t") {
		t.Errorf("hosts.tsv:\n%s", idx)
	}
	// What went wrong comes first, with the host key named.
	if l := res.Line(); l != "15 hosts: 1 refused (host key), 2 unreachable, 1 timed out, 1 failed, 10 ok · 4 distinct outputs" {
		t.Errorf("line %q", l)
	}

	// The second fan-out reuses every connection.
	dials := f.Dials()
	good, _ := tf.inv.Select("web-0*,jumped*")
	res2 := f.Run(context.Background(), good, Request{Command: "echo again", Timeout: 5 * time.Second})
	if res2.Summary.OK != 11 || len(res2.Groups) != 1 {
		t.Fatalf("second run: %s", res2.JSON())
	}
	if f.Dials() != dials {
		t.Errorf("the second run dialled %d new connections", f.Dials()-dials)
	}
}

// TestFleetInterrupt: Ctrl+C during a fan-out ends the remote commands on
// every host and leaves no remote process behind.
func TestFleetInterrupt(t *testing.T) {
	tf := startFleet(t)
	f := tf.fleet(t)
	hosts, _ := tf.inv.Select("web-*")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *Result)
	go func() { done <- f.Run(ctx, hosts, Request{Command: "sleep 60.8123; echo never", Timeout: time.Minute}) }()
	deadline := time.Now().Add(20 * time.Second)
	for remote(t, "sleep 60.8123") < 10 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d remote commands started", remote(t, "sleep 60.8123"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	res := <-done
	if res.Summary.Interrupted != 10 {
		t.Fatalf("summary %+v", res.Summary)
	}
	for i := 0; remote(t, "sleep 60.8123") > 0; i++ {
		if i > 50 {
			t.Fatalf("%d remote processes left after Ctrl+C", remote(t, "sleep 60.8123"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if g := res.Groups[0]; !g.Interrupted || !strings.Contains(g.Stderr, "Interrupted") {
		t.Errorf("group %+v", g)
	}
}

// TestFleetConcurrencyLimit: at most Concurrency hosts run at once.
func TestFleetConcurrencyLimit(t *testing.T) {
	tf := startFleet(t)
	f := New(tf.inv, Options{Concurrency: 3, ConnectTimeout: 2 * time.Second, Home: tf.srv.Home})
	defer f.Close()
	hosts, _ := tf.inv.Select("web-*")
	// Each host records when it ran; overlapping intervals are counted
	// from the remote side.
	log := filepath.Join(tf.dir, "log")
	res := f.Run(context.Background(), hosts, Request{
		Command: fmt.Sprintf(`echo start >> %s; sleep 1; echo end >> %s`, log, log), Timeout: 30 * time.Second,
	})
	if res.Summary.OK != 10 {
		t.Fatalf("%s", res.JSON())
	}
	b, _ := os.ReadFile(log)
	running, peak := 0, 0
	for _, l := range strings.Fields(string(b)) {
		if l == "start" {
			running++
		} else {
			running--
		}
		peak = max(peak, running)
	}
	if peak > 3 || peak < 2 {
		t.Errorf("peak concurrency %d, limit 3", peak)
	}
	if res.OutputDir != "" {
		t.Errorf("no output root, yet outputs in %s", res.OutputDir)
	}
}

func TestHostList(t *testing.T) {
	hs := []string{"a", "b", "c", "d"}
	sort.Strings(hs)
	if got := HostList(hs, 2); got != "a, b and 2 more" {
		t.Errorf("%q", got)
	}
}

// TestFleetHostKeyPolicy: an unknown key is refused under the default
// StrictHostKeyChecking and learnt under accept-new and no; a changed key
// is refused whatever the setting, never asked about.
func TestFleetHostKeyPolicy(t *testing.T) {
	ft := fleettest.Start(t, 4)
	kh := filepath.Join(ft.Home, ".ssh", "fleet_known_hosts")
	// web-01 keeps its entry; web-02..04 are unknown.
	b, err := os.ReadFile(kh)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitAfter(string(b), "\n")[0]
	write(t, kh, first)
	cfg, _ := os.ReadFile(ft.Config)
	c := strings.Replace(string(cfg), "Host web-03\n", "Host web-03\n  StrictHostKeyChecking accept-new\n", 1)
	c = strings.Replace(c, "Host web-04\n", "Host web-04\n  StrictHostKeyChecking no\n", 1)
	write(t, ft.Config, c)
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: ft.Config, Home: ft.Home, LocalUser: ft.Server.User}})
	if err != nil {
		t.Fatal(err)
	}
	f := New(inv, Options{Home: ft.Home, ConnectTimeout: 5 * time.Second})
	defer f.Close()
	hosts, _ := inv.Select("@all")
	res := f.Run(context.Background(), hosts, Request{Command: "echo in", Timeout: 10 * time.Second})
	if res.Summary.OK != 3 || res.Summary.Refused != 1 || len(res.Errors) != 1 || res.Errors[0].Host != "web-02" ||
		!strings.Contains(res.Errors[0].Error, "unknown host key") {
		t.Fatalf("%s", res.JSON())
	}
	learnt, _ := os.ReadFile(kh)
	for _, h := range []string{"web-03", "web-04"} {
		if !strings.Contains(string(learnt), fmt.Sprintf("[127.0.0.1]:%d ", ft.Ports[h])) {
			t.Errorf("%s's key was not learnt:\n%s", h, learnt)
		}
	}
	// Every known key now changes: refused for all, whatever the setting.
	k := filepath.Join(t.TempDir(), "k")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", k).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	pub, err := os.ReadFile(k + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(pub))
	var lines []string
	for _, h := range ft.Names {
		lines = append(lines, fmt.Sprintf("[127.0.0.1]:%d %s %s", ft.Ports[h], fields[0], fields[1]))
	}
	write(t, kh, strings.Join(lines, "\n")+"\n")
	f2 := New(inv, Options{Home: ft.Home, ConnectTimeout: 5 * time.Second})
	defer f2.Close()
	res = f2.Run(context.Background(), hosts, Request{Command: "echo in", Timeout: 10 * time.Second})
	if res.Summary.Refused != 4 || len(res.Groups) != 0 {
		t.Fatalf("changed keys: %s", res.JSON())
	}
	for _, e := range res.Errors {
		if !strings.Contains(e.Error, "does not match known_hosts") {
			t.Errorf("%s: %s", e.Host, e.Error)
		}
	}
}

// TestFleetLargeOutput: what the model sees is shaped like run_cmd's
// output, the saved file holds the stream up to its cap.
func TestFleetLargeOutput(t *testing.T) {
	ft := fleettest.Start(t, 2)
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: ft.Config, Home: ft.Home, LocalUser: ft.Server.User}})
	if err != nil {
		t.Fatal(err)
	}
	f := New(inv, Options{Home: ft.Home, OutputRoot: t.TempDir(), MaxOutputBytes: 100000})
	defer f.Close()
	hosts, _ := inv.Select("@all")
	res := f.Run(context.Background(), hosts, Request{Command: "seq 1 50000; printf 'bin\\000ary' >&2", Timeout: 20 * time.Second})
	if res.Summary.OK != 2 || len(res.Groups) != 1 {
		t.Fatalf("%s", res.JSON())
	}
	g := res.Groups[0]
	if !strings.Contains(g.Stdout, "lines omitted") || !strings.HasPrefix(g.Stdout, "1\n2\n") || !strings.HasSuffix(g.Stdout, "50000\n") || len(g.Stdout) > 20000 {
		t.Errorf("stdout not sandwiched (%d bytes): %.200q", len(g.Stdout), g.Stdout)
	}
	if !strings.Contains(g.Stderr, "binary") {
		t.Errorf("stderr %q", g.Stderr)
	}
	saved, err := os.ReadFile(filepath.Join(res.OutputDir, "web-02.stdout"))
	if err != nil || len(saved) < 100000 || len(saved) > 100200 || !strings.Contains(string(saved), "output cut here") {
		t.Errorf("saved %d bytes, %v", len(saved), err)
	}
}

// TestFleetAgent: keys come from ssh-agent; with IdentitiesOnly only the
// agent key matching an IdentityFile is offered.
func TestFleetAgent(t *testing.T) {
	testenv.Tool(t, "ssh-agent")
	ft := fleettest.Start(t, 3)
	dir := t.TempDir()
	sock := filepath.Join(dir, "agent.sock")
	ag := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := ag.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ag.Process.Kill(); _ = ag.Wait() }()
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	add := exec.Command("ssh-add", ft.Server.KeyFile)
	add.Env = append(os.Environ(), "SSH_AUTH_SOCK="+sock)
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v %s", err, out)
	}
	// Only the public half stays on disk.
	pubOnly := filepath.Join(dir, "agentkey")
	pub, _ := os.ReadFile(ft.Server.KeyFile + ".pub")
	write(t, pubOnly+".pub", string(pub))
	otherKey := filepath.Join(dir, "other")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", otherKey).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	cfg, _ := os.ReadFile(ft.Config)
	c := strings.ReplaceAll(string(cfg), "IdentityFile "+ft.Server.KeyFile, "IdentityFile "+pubOnly)
	// web-02 may use only a key the server does not accept; web-03 may use
	// only the agent's key, through its public half.
	c = strings.Replace(c, "Host web-02\n", "Host web-02\n  IdentitiesOnly yes\n  IdentityFile "+otherKey+"\n", 1)
	c = strings.Replace(c, "Host web-03\n", "Host web-03\n  IdentitiesOnly yes\n", 1)
	write(t, ft.Config, c)
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: ft.Config, Home: ft.Home, LocalUser: ft.Server.User}})
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := inv.Host("web-02")
	// The first IdentityFile obtained is web-02's own; the pub-only one
	// follows (IdentityFile accumulates), and IdentitiesOnly lets the
	// agent offer its matching key: drop it to test the refusal.
	h2.SSH.IdentityFiles = []string{otherKey}
	hosts, _ := inv.Select("@all")
	f := New(inv, Options{Home: ft.Home, AgentSocket: sock, ConnectTimeout: 5 * time.Second})
	defer f.Close()
	res := f.Run(context.Background(), hosts, Request{Command: "echo via-agent", Timeout: 10 * time.Second})
	if res.Summary.OK != 2 || res.Summary.Refused != 1 || res.Errors[0].Host != "web-02" || !strings.Contains(res.Errors[0].Error, "unable to authenticate") {
		t.Fatalf("%s", res.JSON())
	}
	// Without the agent nothing authenticates web-01.
	f2 := New(inv, Options{Home: ft.Home, ConnectTimeout: 5 * time.Second})
	defer f2.Close()
	one, _ := inv.Select("web-01")
	if res := f2.Run(context.Background(), one, Request{Command: "true"}); res.Summary.Refused != 1 {
		t.Fatalf("no agent: %s", res.JSON())
	}
}

// TestFleetAnsibleInventory: hosts of an Ansible inventory (INI and
// YAML) reach real servers through ansible_host/ansible_port/ansible_user,
// with the keys and known_hosts of the ssh configuration of their
// ansible_host, as Ansible's ssh connection does.
func TestFleetAnsibleInventory(t *testing.T) {
	ft := fleettest.Start(t, 3)
	cfg, _ := os.ReadFile(ft.Config)
	// The aliases go; what is left applies to the address itself.
	var keep []string
	for _, l := range strings.Split(string(cfg), "\n") {
		if strings.HasPrefix(l, "  IdentityFile") || strings.HasPrefix(l, "  UserKnownHostsFile") || strings.HasPrefix(l, "  StrictHostKeyChecking") {
			keep = append(keep, l)
		}
	}
	write(t, ft.Config, "Host 127.0.0.*\n"+strings.Join(keep[:3], "\n")+"\n")
	dir := t.TempDir()
	p := func(n int) int { return ft.Ports[ft.Names[n]] }
	ini := filepath.Join(dir, "hosts")
	write(t, ini, fmt.Sprintf("[app]\napp1 ansible_host=127.0.0.1 ansible_port=%d\napp2 ansible_host=127.0.0.1 ansible_port=%d\n[db]\ndb1 ansible_host=127.0.0.1 ansible_port=%d ansible_user=nosuchuser\n[prod:children]\napp\ndb\n", p(0), p(1), p(2)))
	yml := filepath.Join(dir, "more.yml")
	write(t, yml, fmt.Sprintf("all:\n  children:\n    cache:\n      vars: {ansible_host: 127.0.0.1, ansible_user: %s}\n      hosts:\n        cache1: {ansible_port: %d}\n", ft.Server.User, p(2)))
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: ft.Config, Home: ft.Home, LocalUser: ft.Server.User}, Ansible: []string{ini, yml}})
	if err != nil {
		t.Fatal(err)
	}
	if inv.Len() != 4 {
		t.Fatalf("hosts %q", inv.names())
	}
	f := New(inv, Options{Home: ft.Home, ConnectTimeout: 5 * time.Second})
	defer f.Close()
	hosts, err := inv.Select("@prod,@cache")
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background(), hosts, Request{Command: "echo ${SSH_CONNECTION##* }", Timeout: 10 * time.Second})
	if res.Summary.OK != 3 || res.Summary.Refused != 1 || res.Errors[0].Host != "db1" {
		t.Fatalf("%s", res.JSON())
	}
	for _, g := range res.Groups {
		want := map[string]int{"app1": p(0), "app2": p(1), "cache1": p(2)}[g.Hosts[0]]
		if len(g.Hosts) != 1 || g.Stdout != fmt.Sprintf("%d\n", want) {
			t.Errorf("group %+v, want port %d", g, want)
		}
	}
}

// TestFleetEnvScrubbed: the secrets of each host's login environment are
// removed as on every host (terminal.env).
func TestFleetEnvScrubbed(t *testing.T) {
	ft := fleettest.Start(t, 2, "SetEnv "+strings.Join(hosttest.Canaries, " "))
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: ft.Config, Home: ft.Home, LocalUser: ft.Server.User}})
	if err != nil {
		t.Fatal(err)
	}
	f := New(inv, Options{Home: ft.Home, EnvPolicy: hosttest.CanaryPolicy})
	defer f.Close()
	hosts, _ := inv.Select("@all")
	res := f.Run(context.Background(), hosts, Request{Command: "env", Timeout: 10 * time.Second})
	if res.Summary.OK != 2 {
		t.Fatalf("%s", res.JSON())
	}
	for _, g := range res.Groups {
		hosttest.CheckScrubbed(t, "fleet "+strings.Join(g.Hosts, ","), g.Stdout)
	}
}
