package fleet

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const iniInventory = `# production
mail.example.com

[web]
web-[01:03].example.com ansible_user=www
web-legacy ansible_host=10.1.1.1 ansible_port=2222 ansible_user="old user"

[db]
db-a ansible_host=10.2.0.1
db-b:2200

[db:vars]
ansible_user=postgres
ansible_port=5022

[prod:children]
web
db

[prod:vars]
ansible_user=ops
`

const yamlInventory = `all:
  vars:
    ansible_user: yamlops
  hosts:
    solo:
  children:
    web:
      hosts:
        web-[01:03].example.com:
          ansible_user: www
        web-legacy:
          ansible_host: 10.1.1.1
          ansible_port: 2222
          ansible_user: old user
    db:
      vars:
        ansible_user: postgres
        ansible_port: 5022
      hosts:
        db-a: {ansible_host: 10.2.0.1}
        db-b: {ansible_port: 2200}
    prod:
      vars:
        ansible_user: ops
      children:
        web:
        db:
`

// TestAnsibleINIAndYAML reads the same inventory in both forms: groups,
// :children, ranges, ansible_host/port/user with host vars over child
// group vars over parent group vars.
func TestAnsibleINIAndYAML(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		extra      string // the host only this form has
	}{
		{"hosts", iniInventory, "mail.example.com"},
		{"hosts.yml", yamlInventory, "solo"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name)
			write(t, p, c.text)
			inv, err := Load(Sources{SSH: SSHConfigFiles{Home: dir, LocalUser: "me"}, Ansible: []string{p}})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"db-a", "db-b", c.extra, "web-01.example.com", "web-02.example.com", "web-03.example.com", "web-legacy"}
			if c.extra == "solo" {
				want = []string{"db-a", "db-b", "solo", "web-01.example.com", "web-02.example.com", "web-03.example.com", "web-legacy"}
			}
			if got := inv.names(); !reflect.DeepEqual(got, want) {
				t.Fatalf("hosts = %q, want %q", got, want)
			}
			addr := func(name string) string {
				h, ok := inv.Host(name)
				if !ok {
					t.Fatalf("no host %s", name)
				}
				return h.Addr()
			}
			for name, want := range map[string]string{
				"web-02.example.com": "www@web-02.example.com:22",
				"web-legacy":         "old user@10.1.1.1:2222",
				"db-a":               "postgres@10.2.0.1:5022",
				"db-b":               "postgres@db-b:2200",
			} {
				if got := addr(name); got != want {
					t.Errorf("%s: %s, want %s", name, got, want)
				}
			}
			groups := map[string]int{}
			for _, g := range inv.Groups() {
				groups[g.Name] = g.Hosts
			}
			for g, n := range map[string]int{"all": 7, "web": 4, "db": 2, "prod": 6} {
				if groups[g] != n {
					t.Errorf("group %s has %d hosts, want %d (%v)", g, groups[g], n, groups)
				}
			}
			sel, err := inv.Select("@db, web-0[12]*,web-legacy,!db-b")
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, h := range sel {
				names = append(names, h.Name)
			}
			if want := []string{"db-a", "web-01.example.com", "web-02.example.com", "web-legacy"}; !reflect.DeepEqual(names, want) {
				t.Errorf("selection = %q, want %q", names, want)
			}
		})
	}
}

func TestAnsibleOldVariableNames(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "old")
	write(t, p, "[legacy]\nold1 ansible_ssh_host=10.9.9.9 ansible_ssh_port=2200 ansible_ssh_user=veteran\nnew1 ansible_host=10.8.8.8 ansible_ssh_host=ignored\n")
	inv, err := Load(Sources{SSH: SSHConfigFiles{Home: dir, LocalUser: "me"}, Ansible: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"old1": "veteran@10.9.9.9:2200", "new1": "me@10.8.8.8:22"} {
		if h, _ := inv.Host(name); h == nil || h.Addr() != want {
			t.Errorf("%s: %v, want %s", name, h, want)
		}
	}
}

func TestSelectErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	write(t, cfg, "Host web-01 web-02 db-01\n  User x\nHost *.internal\n  Port 2\n")
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: cfg, Home: dir, LocalUser: "me"}})
	if err != nil {
		t.Fatal(err)
	}
	if inv.Len() != 3 {
		t.Fatalf("hosts %q: wildcard Host lines are not hosts", inv.names())
	}
	for sel, want := range map[string]string{
		"web-03":         `no host "web-03" in the inventory (did you mean web-01?)`,
		"@webs":          `no group "webs"`,
		"mail-*":         "matches no host",
		" , ":            "empty selection",
		"web-[":          "bad host pattern",
		"@all":           "",
		"web-0?":         "",
		"db-01,,":        "",
		"!web-01":        "empty selection",
		"web-01,!web-0?": `"web-01,!web-0?" leaves none`,
		"@all,!nope":     `no host "nope"`,
		"@all,!":         "an empty item",
	} {
		_, err := inv.Select(sel)
		switch {
		case want == "" && err != nil:
			t.Errorf("Select(%q): %v", sel, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("Select(%q) = %v, want %q", sel, err, want)
		}
	}
}

func TestPromptSectionNamesGroupsNotThousandsOfHosts(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "inv.ini")
	write(t, p, "[web]\nweb-[0001:1200]\n[db]\ndb-[1:8]\n")
	inv, err := Load(Sources{SSH: SSHConfigFiles{Home: dir, LocalUser: "me"}, Ansible: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	s := inv.PromptSection()
	for _, want := range []string{"1208 hosts", "@web (1200)", "@db (8)"} {
		if !strings.Contains(s, want) {
			t.Errorf("prompt section lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "web-0001") || len(s) > 600 {
		t.Errorf("prompt section names hosts of a large inventory (%d bytes):\n%s", len(s), s)
	}
}

func TestAnsibleErrors(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"bad-section": "[web\nhost\n",
		"bad-range":   "[web]\nweb-[3:1]\n",
		"bad-var":     "[web]\nhost novalue\n",
		"bad.yml":     "all: [1, 2\n",
		"bad-port":    "[web]\nh ansible_port=http\n",
	} {
		p := filepath.Join(dir, name)
		write(t, p, text)
		if _, err := Load(Sources{SSH: SSHConfigFiles{Home: dir}, Ansible: []string{p}}); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v does not name the file", name, err)
		}
	}
	if _, err := Load(Sources{SSH: SSHConfigFiles{Home: dir}, Ansible: []string{filepath.Join(dir, "missing")}}); !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("missing inventory: %v", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

func TestListing(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	write(t, cfg, "Host bastion\n  HostName 192.0.2.1\n  User ops\nHost inner\n  HostName 10.0.0.5\n  ProxyJump bastion\n")
	p := filepath.Join(dir, "inv")
	write(t, p, "[db]\ndb-[1:3] ansible_user=pg\n")
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: cfg, Home: dir, LocalUser: "me"}, Ansible: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	got := inv.Listing(inv.Hosts(), 4, "") + "\n" + inv.Listing(inv.Hosts()[4:], 0, "")
	for _, want := range []string{
		"5 hosts · groups: @db (3)",
		"bastion  ops@192.0.2.1:22  ssh config",
		"inner  me@10.0.0.5:22  via bastion · ssh config",
		"db-1     pg@db-1:22        @db · " + p,
		"… and 1 more",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("listing lacks %q:\n%s", want, got)
		}
	}
	// A selection is counted under its own header.
	sel, err := inv.Select("@db,!db-2")
	if err != nil {
		t.Fatal(err)
	}
	got = inv.Listing(sel, 0, "@db,!db-2")
	if lines := strings.Split(got, "\n"); lines[0] != "2 of 5 hosts: @db,!db-2" || len(lines) != 3 {
		t.Errorf("selection listing:\n%s", got)
	}
}

func TestExpandRange(t *testing.T) {
	got, err := expandRange("db-[a:b]-[08:10:2]")
	if err != nil || strings.Join(got, " ") != "db-a-08 db-a-10 db-b-08 db-b-10" {
		t.Errorf("%q %v", got, err)
	}
	if _, err := expandRange("h-[0:99999]-[0:99]"); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("a product of ranges beyond the limit: %v", err)
	}
}
