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

	"github.com/nb-cli/nb/internal/host/ssh/sshtest"
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
	f := New(tf.inv, Options{ConnectTimeout: 2 * time.Second, Home: tf.srv.Home, OutputRoot: filepath.Join(tf.dir, "outputs")})
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
	hosts, err := tf.inv.Select("web-*,badkey,jumped,down,hung")
	if err != nil {
		t.Fatal(err)
	}
	if len(hosts) != 14 {
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
	want := Summary{Total: 14, OK: 9, Failed: 1, Unreachable: 2, Refused: 1, TimedOut: 1}
	if res.Summary != want {
		t.Fatalf("summary %+v, want %+v\n%s", res.Summary, want, res.JSON())
	}
	if len(progress) != 14 || progress[13].Done != 14 || progress[13].Total != 14 {
		t.Errorf("progress %+v", progress)
	}
	g := res.Groups[0]
	if wantHosts := []string{"jumped", "web-01", "web-02", "web-04", "web-06", "web-07", "web-08", "web-09"}; strings.Join(g.Hosts, ",") != strings.Join(wantHosts, ",") ||
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
	if len(errs) != 3 || !strings.Contains(errs["badkey"], "does not match known_hosts") || !strings.HasPrefix(errs["badkey"], "refused: ") ||
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
	if l := res.Line(); l != "14 hosts: 9 ok, 1 failed, 2 unreachable, 1 refused, 1 timed out · 4 distinct outputs" {
		t.Errorf("line %q", l)
	}

	// The second fan-out reuses every connection.
	dials := f.Dials()
	good, _ := tf.inv.Select("web-0*,jumped")
	res2 := f.Run(context.Background(), good, Request{Command: "echo again", Timeout: 5 * time.Second})
	if res2.Summary.OK != 10 || len(res2.Groups) != 1 {
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
		Command: fmt.Sprintf(`echo start >> %s; sleep 0.3; echo end >> %s`, log, log), Timeout: 20 * time.Second,
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
