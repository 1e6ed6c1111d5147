//go:build unix

package files

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

const outsideCanary = "OUTSIDE-CANARY"

// swapWorld is a root whose directory d can be swapped for a symlink to a
// directory outside holding the canary under the same names.
func swapWorld(t *testing.T) (e *env, d, real, outside string) {
	t.Helper()
	e = setup(t)
	d, real = filepath.Join(e.root, "d"), filepath.Join(e.root, "d.real")
	outside = filepath.Join(filepath.Dir(e.outside), "swap-outside")
	for _, dir := range []string{d, outside} {
		must(t, os.MkdirAll(dir, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(d, "f.txt"), []byte("inside\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "f.txt"), []byte(outsideCanary+"\n"), 0o644))
	return e, d, real, outside
}

func toSymlink(t *testing.T, d, real, outside string) {
	must(t, os.Rename(d, real))
	must(t, os.Symlink(outside, d))
}

// A directory swapped for a symlink after the review and before the run
// leads nowhere outside: read_file, list_dir, write_file and path_info
// work beneath the root.
func TestSwapAfterReviewStaysInside(t *testing.T) {
	e, d, real, outside := swapWorld(t)
	ctx := context.Background()
	review := func(name string, args any) *tool.Invocation {
		inv, err := tooltest.Review(t, e.tools[name], tool.At{Cwd: e.root}, args)
		if err != nil {
			t.Fatalf("%s: review: %v", name, err)
		}
		return inv
	}
	read := review("read_file", map[string]any{"path": "d/f.txt"})
	list := review("list_dir", map[string]any{"path": "d"})
	write := review("write_file", map[string]any{"path": "d/new.txt", "content": "planted\n"})
	info := review("path_info", map[string]any{"path": "d/f.txt"})
	toSymlink(t, d, real, outside)
	for name, inv := range map[string]*tool.Invocation{"read_file": read, "list_dir": list, "write_file": write, "path_info": info} {
		res, err := inv.Run(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(res.Content, outsideCanary) || (name == "list_dir" && strings.Contains(res.Content, "f.txt")) {
			t.Errorf("%s reached outside the root after the swap: %s", name, res.Content)
		}
		if name == "path_info" {
			var i Info
			if json.Unmarshal([]byte(res.Content), &i) == nil && i.Exists {
				t.Errorf("path_info described the outside file: %s", res.Content)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
		t.Error("write_file created a file outside the root")
	}
}

// The same race in a loop, as an attacker would run it: one goroutine
// swaps d and a symlink to outside as fast as it can while read_file and
// write_file are called; the outside canary never comes back and nothing
// is written outside.
func TestSwapRaceLoop(t *testing.T) {
	e, d, real, outside := swapWorld(t)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Each state lasts a little (up to about a call's time), so calls
		// are reviewed in one state and run in the other.
		n := 0
		hold := func() {
			n++
			time.Sleep(time.Duration(n%7) * 300 * time.Microsecond)
		}
		for !stop.Load() {
			hold()
			if os.Rename(d, real) != nil {
				continue
			}
			os.Symlink(outside, d)
			hold()
			os.Remove(d)
			os.Rename(real, d)
		}
	}()
	inside := 0
	for i := 0; i < 300; i++ {
		_, res, _ := e.call(t, "read_file", map[string]any{"path": "d/f.txt"})
		if strings.Contains(res.Content, outsideCanary) {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("call %d read the outside file through the swapped directory", i)
		}
		if res.Content == "inside\n" {
			inside++
		}
		if i%10 == 0 {
			e.call(t, "write_file", map[string]any{"path": "d/w.txt", "content": "x"})
		}
	}
	stop.Store(true)
	wg.Wait()
	if _, err := os.Stat(filepath.Join(outside, "w.txt")); err == nil {
		t.Error("write_file wrote outside the root")
	}
	t.Logf("%d of 300 reads saw the directory in place", inside)
}
