package fleet

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// sshG asks OpenSSH itself how it resolves alias with only cfg read.
func sshG(t *testing.T, cfg, alias string) map[string][]string {
	t.Helper()
	out, err := exec.Command("ssh", "-G", "-F", cfg, alias).Output()
	if err != nil {
		t.Fatalf("ssh -G %s: %v", alias, err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(line, " ")
		if ok {
			m[k] = append(m[k], v)
		}
	}
	return m
}

const diffConfig = `# a user's config
Include %[1]s/conf.d/*.conf

Host web-01 web-02
    HostName %%h.example.net
    User deploy
Host web-0?
    Port 2201
    IdentityFile ~/.ssh/web_key
Host db-* !db-legacy
    HostName 10.0.0.9
    Port=2202
    StrictHostKeyChecking accept-new
Host db-legacy
    HostName = "legacy db"
    ProxyJump admin@bastion:2222,gw
    UserKnownHostsFile %[1]s/kh1 "%[1]s/kh 2"
Host bastion
    HostName 192.0.2.1
    StrictHostKeyChecking yes  # strict
Host Mixed
    HostName mixed.example.net
Match originalhost plain
    User plainuser
Match host 10.0.0.9 originalhost db-a
    IdentityFile /keys/db_a
Match all
    IdentityFile /keys/everyone
Host *
    User fallback
    Port 2200
    UserKnownHostsFile %[1]s/kh_all
    StrictHostKeyChecking no
`

const diffConfig2 = `Host inc-*
    Include %[1]s/scoped.conf
Host "quoted" other
    HostName q.example.net
    UserKnownHostsFile ~/.ssh/kh_%%h_%%r_%%p_%%u %%d/kh_%%n
    User ruser
    Port 2022
Match host q.example.net
    Port 9999
    IdentityFile /keys/q
Match originalhost inc-b !host never
    User incb
Host *
    IdentityFile /keys/last
`

const diffScoped = `HostName scoped.example.net
Host inc-a
    User onlya
`

const diffInclude = `Host web-01
    Port 2299
    IdentityFile /keys/from_include
Host gw
    HostName gw.example.net
    ProxyJump none
`

// TestSSHConfigMatchesOpenSSH resolves every alias of a configuration
// with Include, patterns, negation, ? and Match, and compares with what
// `ssh -G` says for the same files.
func TestSSHConfigMatchesOpenSSH(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		testenv.Missing(t, "the differential test needs OpenSSH's ssh client")
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "conf.d"), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config")
	write(t, cfg, strings.ReplaceAll(sprintf(diffConfig, dir), "%%", "%"))
	write(t, filepath.Join(dir, "conf.d", "10-web.conf"), diffInclude)
	write(t, filepath.Join(dir, "conf.d", "ignored.txt"), "Host never\n  Port 1\n")
	sc, err := LoadSSHConfig(SSHConfigFiles{User: cfg, Home: u.HomeDir, LocalUser: u.Username})
	if err != nil {
		t.Fatal(err)
	}
	wantAliases := []string{"web-01", "gw", "web-02", "db-legacy", "bastion", "Mixed"}
	if got := sc.Aliases(); !reflect.DeepEqual(got, wantAliases) {
		t.Errorf("aliases = %q, want %q", got, wantAliases)
	}
	for _, alias := range []string{"web-01", "web-02", "web-03", "web-010", "db-a", "db-legacy", "bastion", "gw", "plain", "mixed", "Mixed", "other"} {
		t.Run(alias, func(t *testing.T) {
			g := sshG(t, cfg, alias)
			r := sc.Resolve(alias)
			check := func(field, got string, want []string) {
				t.Helper()
				if len(want) != 1 || got != want[0] {
					t.Errorf("%s: nb %q, ssh -G %q", field, got, want)
				}
			}
			check("hostname", r.HostName, g["hostname"])
			check("port", strconv.Itoa(r.Port), g["port"])
			check("user", r.User, g["user"])
			shkc := map[string]string{"yes": "true", "no": "false", "accept-new": "accept-new", "ask": "ask"}[r.StrictHostKeyChecking]
			check("stricthostkeychecking", shkc, g["stricthostkeychecking"])
			if pj := g["proxyjump"]; len(pj) > 0 || r.ProxyJump != "" {
				check("proxyjump", r.ProxyJump, pj)
			}
			if !reflect.DeepEqual(r.KnownHostsFiles, strings.Fields(strings.Join(g["userknownhostsfile"], " "))) &&
				!(len(g["userknownhostsfile"]) == 1 && strings.Join(r.KnownHostsFiles, " ") == g["userknownhostsfile"][0]) {
				t.Errorf("userknownhostsfile: nb %q, ssh -G %q", r.KnownHostsFiles, g["userknownhostsfile"])
			}
			// ssh -G lists identity files with ~ unexpanded (and the
			// defaults when none is configured).
			var ids []string
			for _, f := range g["identityfile"] {
				if strings.HasPrefix(f, "~/") {
					f = filepath.Join(u.HomeDir, f[2:])
				}
				ids = append(ids, f)
			}
			if len(r.IdentityFiles) > 0 || !strings.Contains(strings.Join(ids, " "), "id_rsa") {
				if !reflect.DeepEqual(r.IdentityFiles, ids) {
					t.Errorf("identityfile: nb %q, ssh -G %q", r.IdentityFiles, ids)
				}
			}
		})
	}
}

// TestSSHConfigMatchesOpenSSH2: Include inside a Host block, quoted
// patterns, tokens in UserKnownHostsFile, Match host after HostName.
func TestSSHConfigMatchesOpenSSH2(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		testenv.Missing(t, "the differential test needs OpenSSH's ssh client")
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	write(t, cfg, strings.ReplaceAll(sprintf(diffConfig2, dir), "%%", "%"))
	write(t, filepath.Join(dir, "scoped.conf"), diffScoped)
	sc, err := LoadSSHConfig(SSHConfigFiles{User: cfg, Home: u.HomeDir, LocalUser: u.Username})
	if err != nil {
		t.Fatal(err)
	}
	for _, alias := range []string{"inc-a", "inc-b", "quoted", "other", "plain"} {
		g := sshG(t, cfg, alias)
		r := sc.Resolve(alias)
		got := map[string]string{"hostname": r.HostName, "port": strconv.Itoa(r.Port), "user": r.User, "userknownhostsfile": strings.Join(r.KnownHostsFiles, " ")}
		for k, v := range got {
			if want := strings.Join(g[k], " "); v != want {
				t.Errorf("%s %s: nb %q, ssh -G %q", alias, k, v, want)
			}
		}
		var ids []string
		for _, f := range g["identityfile"] {
			if strings.HasPrefix(f, "/keys/") {
				ids = append(ids, f)
			}
		}
		if !reflect.DeepEqual(r.IdentityFiles, ids) {
			t.Errorf("%s identityfile: nb %q, ssh -G %q", alias, r.IdentityFiles, ids)
		}
	}
}

func sprintf(format string, dir string) string {
	return strings.NewReplacer("%[1]s", dir).Replace(format)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestMatchPattern(t *testing.T) {
	for _, c := range []struct {
		pat, s string
		want   bool
	}{
		{"web-0?", "web-01", true}, {"web-0?", "web-0", false}, {"web-0?", "web-012", false},
		{"*", "", true}, {"a*b", "ab", true}, {"a*b", "axxb", true}, {"a*b", "axxc", false},
		{"*.example.net", "x.example.net", true}, {"db-*", "db-", true},
	} {
		if got := Match(c.pat, c.s); got != c.want {
			t.Errorf("Match(%q, %q) = %v", c.pat, c.s, got)
		}
	}
}

func TestSplitLine(t *testing.T) {
	for line, want := range map[string][]string{
		`  HostName=example.com`:          {"hostname", "example.com"},
		`IdentityFile "/a b/c" # comment`: {"identityfile", "/a b/c"},
		`UserKnownHostsFile /x '/y z'`:    {"userknownhostsfile", "/x", "/y z"},
		`Host a\ b c`:                     {"host", "a b", "c"},
		"\tPort = 22":                     {"port", "22"},
		"# nothing":                       nil,
	} {
		k, args, err := splitLine(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		var got []string
		if k != "" {
			got = append([]string{k}, args...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("splitLine(%q) = %q, want %q", line, got, want)
		}
	}
	if _, _, err := splitLine(`HostName "open`); err == nil {
		t.Error("an unterminated quote is an error")
	}
}

func TestIdentityTokens(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	write(t, cfg, "Host h\n HostName real.example\n User u\n Port 2022\n IdentityFile ~/k_%h_%r_%p_%n_%u_%%\n IdentityFile rel/key\n")
	sc, err := LoadSSHConfig(SSHConfigFiles{User: cfg, Home: "/home/me", LocalUser: "me"})
	if err != nil {
		t.Fatal(err)
	}
	r := sc.Resolve("h")
	want := []string{"/home/me/k_real.example_u_2022_h_me_%", "/home/me/rel/key"}
	if !reflect.DeepEqual(r.IdentityFiles, want) {
		t.Errorf("identity files %q, want %q", r.IdentityFiles, want)
	}
}

func TestIncludeLoopIsAnError(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	write(t, cfg, "Include "+cfg+"\n")
	if _, err := LoadSSHConfig(SSHConfigFiles{User: cfg, Home: dir}); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Fatalf("err = %v", err)
	}
}

func TestSystemConfigAddsSettingsNotHosts(t *testing.T) {
	dir := t.TempDir()
	user, system := filepath.Join(dir, "config"), filepath.Join(dir, "ssh_config")
	write(t, user, "Host mine\n  HostName 10.0.0.1\n")
	write(t, system, "Host sys-only\n  Port 1\nHost *\n  Port 2222\n  User sysuser\n")
	sc, err := LoadSSHConfig(SSHConfigFiles{User: user, System: system, Home: dir, LocalUser: "me"})
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Aliases(); !reflect.DeepEqual(got, []string{"mine"}) {
		t.Errorf("aliases %q", got)
	}
	if r := sc.Resolve("mine"); r.Port != 2222 || r.User != "sysuser" || r.HostName != "10.0.0.1" {
		t.Errorf("resolved %+v", r)
	}
}
