package fsfacts_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/policy"
)

// A cloud service-account key or a private key is a secret whatever its
// name: read directly, through a link, or by a recursive search.
func TestKeyContentShapes(t *testing.T) {
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	os.MkdirAll(filepath.Join(proj, "deploy"), 0o755)
	sa := `{
  "type": "service_account",
  "project_id": "p",
  "private_key_id": "0123",
  "private_key": "-----BEGIN PRIVATE KEY-----\nCANARY` + strings.Repeat("A", 1200) + `\n-----END PRIVATE KEY-----\n",
  "client_email": "x@p.iam.gserviceaccount.com"
}
`
	os.WriteFile(filepath.Join(proj, "deploy", "key.json"), []byte(sa), 0o600)
	os.WriteFile(filepath.Join(proj, "notes"), []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nCANARY\n"), 0o600)
	os.WriteFile(filepath.Join(proj, "data.json"), []byte(`{"type": "service_account_list", "n": 1}`+strings.Repeat(" ", 600)), 0o644)
	facts := fsfacts.Disk{Home: home}
	cc := policy.CommandContext{Cwd: proj, Home: home, Facts: facts}
	for _, cmd := range []string{"cat deploy/key.json", "jq . deploy/key.json", "head notes", "grep -r CANARY .", "grep -r x deploy"} {
		if d := decide(e, cmd, cc); d.Decision == policy.Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
	for _, cmd := range []string{"cat data.json", "ls deploy"} {
		if d := decide(e, cmd, cc); d.Decision != policy.Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
}
