package host

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// man saves formatted pages in /var/cache/man (when it may write there,
// as root) only for line lengths of 66 to 80; NonInteractiveEnv sets one
// outside, so an auto-approved `man PAGE` writes nothing.
func TestManSavesNoCatPages(t *testing.T) {
	width := -1
	for _, kv := range NonInteractiveEnv {
		if v, ok := strings.CutPrefix(kv, "MANWIDTH="); ok {
			width, _ = strconv.Atoi(v)
		}
	}
	if width >= 66 && width <= 80 || width < 0 {
		t.Fatalf("MANWIDTH %d lets man save cat pages", width)
	}
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("man writes cat pages only where it may write /var/cache/man")
	}
	man := testenv.Tool(t, "man")
	cat := "/var/cache/man/cat1/tsort.1.gz"
	if _, err := os.Stat(filepath.Dir(cat)); err != nil {
		t.Skip("no cat page directory")
	}
	if _, err := os.Stat(cat); err == nil {
		t.Skip(cat + " is already saved")
	}
	cmd := exec.Command(man, "tsort")
	cmd.Env = append(os.Environ(), NonInteractiveEnv...)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "tsort") {
		t.Skipf("man tsort: %v", err)
	}
	if _, err := os.Stat(cat); err == nil {
		os.Remove(cat)
		t.Fatalf("man saved %s", cat)
	}
}
