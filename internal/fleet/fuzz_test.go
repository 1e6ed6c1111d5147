package fleet

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzSSHConfig: any configuration text loads or fails cleanly, and every
// alias resolves without panicking.
func FuzzSSHConfig(f *testing.F) {
	f.Add("Host a b\n  HostName %h.x\n  Port 22\nMatch host a !user b\n  User c\nInclude nothing\n")
	f.Add("Host \"q r\"\n IdentityFile '~/k %d'\n UserKnownHostsFile a\\ b c\n")
	f.Add("Host=x\nProxyJump u@h:1,v\nMatch\n")
	f.Fuzz(func(t *testing.T, text string) {
		dir := t.TempDir()
		p := filepath.Join(dir, "config")
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		sc, err := LoadSSHConfig(SSHConfigFiles{User: p, Home: dir, LocalUser: "me"})
		if err != nil {
			return
		}
		for _, a := range append(sc.Aliases(), "x", "") {
			sc.Resolve(a)
		}
	})
}

// FuzzAnsible: any inventory text parses or fails cleanly, in both forms.
func FuzzAnsible(f *testing.F) {
	f.Add([]byte(iniInventory))
	f.Add([]byte(yamlInventory))
	f.Add([]byte("[a:children]\na\n[a]\nh-[0:3:2]-[x:z]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, parse := range []func([]byte) (*ansibleInventory, error){parseAnsibleINI, parseAnsibleYAML} {
			a, err := parse(b)
			if err != nil {
				continue
			}
			for name := range a.groups {
				a.members(name)
			}
			for _, h := range a.order {
				a.vars(h)
			}
		}
	})
}
