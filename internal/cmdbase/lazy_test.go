package cmdbase

import (
	"sync"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestTablesLazyAndRaceFree runs the test binary again, so that package
// initialisation is all that ran before the test: there the tables must
// not be built yet, and many goroutines using them at once for the first
// time must all see them whole. Under -race a data race fails the child.
func TestTablesLazyAndRaceFree(t *testing.T) {
	if testenv.FreshProcess(t) {
		lazyChildRun(t)
	}
}

func lazyChildRun(t *testing.T) {
	if len(unix) != 0 || len(prefixed) != 0 || len(programs) != 0 || len(builtins[Cmd]) != 0 ||
		len(builtins[PowerShell]) != 0 || builtinSafe != nil || safeFamilies != nil {
		t.Fatal("package initialisation built the tables")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p := Unix("python3.12"); p == nil || p.Name != "python" {
				errs <- "Unix(python3.12) is not python"
			}
			if _, ok := Safe("batcat"); !ok {
				errs <- "batcat is not on the safe list"
			}
			if s := Lookup(PowerShell, "gci"); s == nil || s.Name != "Get-ChildItem" {
				errs <- "gci is not Get-ChildItem"
			}
			if c, ok := DotNet("System.IO.File", "delete"); !ok || c.Does != Writes {
				errs <- "[IO.File]::Delete is not a write"
			}
			if len(UnixNames()) == 0 || len(WindowsNames()) == 0 {
				errs <- "the name lists are empty"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
