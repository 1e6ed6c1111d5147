package fsfacts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/wintest"
)

// The policy's spelling of a Windows path (/c/users/me) resolves to the
// directory it names, answered in the same spelling; a missing file keeps
// its name.
func TestWinResolvePolicySpelling(t *testing.T) {
	dir := wintest.TempDir(t)
	if err := os.Mkdir(filepath.Join(dir, "Sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := policyPath(filepath.Join(dir, "Sub"))
	got, st := Disk{}.Resolve(want)
	if st != policy.PathExists || got != want {
		t.Fatalf("Resolve(%q) = %q, %v; want the same path, existing", want, got, st)
	}
	missing := policyPath(filepath.Join(dir, "Sub", "none.txt"))
	if got, st := (Disk{}).Resolve(missing); st != policy.PathMissing || got != missing {
		t.Fatalf("Resolve(%q) = %q, %v; want it missing", missing, got, st)
	}
}
