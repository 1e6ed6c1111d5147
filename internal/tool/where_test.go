package tool

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
)

// remoteHost is this machine reporting itself remote: its files are
// here, yet a remote host's reads must not be judged by them.
type remoteHost struct{ *host.Local }

func (remoteHost) Isolation() host.Isolation { return host.IsolationRemote }

// A command on a remote host is decided without this disk's facts: a
// file that exists here and is plain says nothing of the file of that
// name over there, so reading it is asked; on this machine it is allowed.
func TestWhereRemoteKnowsNoFiles(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	decide := func(h host.Host) policy.Verdict {
		return e.Decide(policy.Action{Kind: policy.RunCommand, Command: "cat notes.txt", Where: Where(dir, home, h)}).Decision
	}
	if v := decide(&host.Local{}); v != policy.Allow {
		t.Fatalf("cat notes.txt here: %s", v)
	}
	if v := decide(remoteHost{&host.Local{}}); v == policy.Allow {
		t.Error("cat notes.txt on a remote host: allowed by this disk's facts")
	}
}
