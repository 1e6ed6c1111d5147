package sandbox

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// sessionKeysHidden puts a key in the session's keyring and checks that
// a command of h does not see it listed.
func sessionKeysHidden(t *testing.T, h *Host, dir string) {
	canary := fmt.Sprintf("nbt-key-canary-%d", time.Now().UnixNano())
	id, err := unix.AddKey("user", canary, []byte("SECRET-KEY"), unix.KEY_SPEC_SESSION_KEYRING)
	if err != nil {
		t.Skipf("this kernel refuses a key in the session keyring: %v", err)
	}
	defer unix.KeyctlInt(unix.KEYCTL_UNLINK, id, unix.KEY_SPEC_SESSION_KEYRING, 0, 0)
	if b, _ := os.ReadFile("/proc/keys"); !strings.Contains(string(b), canary) {
		t.Skip("the key is not listed outside the sandbox either")
	}
	out, _, _ := sh(t, h, dir, "cat /proc/keys /proc/key-users")
	if strings.Contains(out, canary) {
		t.Errorf("the session's keys are listed in the sandbox: %s", out)
	}
}
