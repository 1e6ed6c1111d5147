package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/nb-cli/nb/internal/proctest"
)

// What the system keeps outside the file tree's usual places is out of
// reach in every mechanism and profile: another program's shared memory
// (/dev/shm), the system's run-time directory (/run: sockets, credentials),
// and, run by root, a disk: a block device in /dev, and one planted
// elsewhere as a device node (a chroot's /dev). Landlock once granted all
// of /dev and saw the host's /run and /dev/shm.
func TestSystemPlacesUnreachable(t *testing.T) {
	proctest.Check(t)
	mark := fmt.Sprintf("nbt-canary-%d", time.Now().UnixNano())
	shm := filepath.Join("/dev/shm", mark)
	mustWrite(t, shm, "CANARY-SHM")
	t.Cleanup(func() { os.Remove(shm) })
	var run, loop, node string
	w := roWorld(t)
	if os.Geteuid() == 0 {
		run = filepath.Join("/run", mark)
		mustWrite(t, run, "CANARY-RUN")
		t.Cleanup(func() { os.Remove(run) })
		loop, node = loopCanary(t, w.root)
	} else {
		t.Log("not root: /run and the disk devices are left to the file permissions here")
	}
	for _, mech := range withPlain(mechanisms(t)) {
		for _, ro := range []bool{true, false} {
			var h *Host
			name := mech + "/workspace"
			if ro {
				name = mech + "/read-only"
				h = newROHost(t, w, mech, nil)
			} else {
				h = newHost(t, w, mech, false)
			}
			t.Run(name, func(t *testing.T) {
				script := "cat " + shm + "; echo x > " + shm
				if run != "" {
					script += "; cat " + run
				}
				if loop != "" {
					script += "; head -c 32 " + loop
					if mech != mechanismLandlockPlain {
						// Landlock alone cannot refuse a device node
						// planted outside /dev (the README says so); only
						// root can plant one.
						script += "; head -c 32 " + node
					}
				}
				out, errs, _ := sh(t, h, w.ws, script)
				if strings.Contains(out, "CANARY") {
					t.Errorf("read in the sandbox:\n%s\n%s", out, errs)
				}
				if b, _ := os.ReadFile(shm); string(b) != "CANARY-SHM" {
					t.Errorf("/dev/shm written from the sandbox: %q", b)
				}
			})
		}
	}
}

// loopCanary attaches a loop device to a file holding a canary and plants
// a device node for it in dir; it returns both paths.
func loopCanary(t *testing.T, dir string) (dev, node string) {
	t.Helper()
	img := filepath.Join(dir, "disk.img")
	if err := os.WriteFile(img, append([]byte("CANARY-DISK"), make([]byte, 1<<20)...), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "-f", "--show", img).Output()
	if err != nil {
		t.Logf("no loop device here (%v): the disk canary is left out", err)
		return "", ""
	}
	dev = strings.TrimSpace(string(out))
	t.Cleanup(func() { _ = exec.Command("losetup", "-d", dev).Run() })
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		t.Fatal(err)
	}
	node = filepath.Join(dir, "planted-disk")
	if err := unix.Mknod(node, unix.S_IFBLK|0o600, int(st.Rdev)); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(node); err != nil || !strings.HasPrefix(string(b), "CANARY-DISK") {
		t.Fatalf("the planted node does not read the disk outside the sandbox: %v", err)
	}
	return dev, node
}
