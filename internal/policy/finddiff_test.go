package policy

import (
	"context"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/testenv"
)

// snapshot lists a tree's entries with their sizes and modes.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		lines = append(lines, rel+" "+fi.Mode().String()+" "+strings.Repeat("#", int(fi.Size()%64)))
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestFindAgainstRealFind builds find commands from fragments of find's
// expression language and runs each one nb allows with the real find in a
// fixture tree: an allowed find must leave the tree as it was, and the
// canary program on PATH must not run.
func TestFindAgainstRealFind(t *testing.T) {
	bash := testenv.Tool(t, "bash")
	testenv.Tool(t, "find")
	root := t.TempDir()
	tree := filepath.Join(root, "tree")
	bin := filepath.Join(root, "bin")
	canary := filepath.Join(root, "canary")
	for _, f := range []string{"a.txt", "b.log", "sub/c.txt", "sub/deep/d.go", "-delete", "x y.txt"} {
		p := filepath.Join(tree, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f), 0o644)
	}
	os.MkdirAll(bin, 0o755)
	for _, name := range []string{"evil", "touch2"} {
		os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\necho \"$0 $*\" >> "+canary+"\n"), 0o755)
	}
	frags := []string{
		"-name '*.txt'", "-type f", "-type d", "-print", "-print0", "-delete", "-exec evil {} +", "-exec cat {} ;",
		"-execdir evil {} ;", "-ok evil {} ;", "-okdir evil {} ;", "-fprint out", "-fprint0 out", "-fls out",
		"-fprintf out %p", "-printf '%p\\n'", "-ls", "-prune", "-quit", "-o", "-a", "!", "-not", "(", ")",
		"-maxdepth 1", "-mindepth 1", "-newer a.txt", "-path './sub/*'", "-regex '.*'", "-size +0", "-empty",
		"-L", "-H", "-P", "-D exec", "-O3", "-depth", "-xdev", "-follow", "-exec ls {} +", "-exec wc -l {} +",
		"-perm -u+w", "-iname 'A*'", "-files0-from list", "-newerXY", "-execdir cat {} +", "-fprint /dev/null",
		"-exec sh -c 'evil' ;", "-exec env evil {} +", "-exec sed -n ':x e' {} +", "-exec sed -i s/a/b/ {} +",
	}
	seed := int64(20)
	if v, err := strconv.ParseInt(os.Getenv("NB_FIND_SEED"), 10, 64); err == nil {
		seed = v // another corpus, by hand
	}
	rng := rand.New(rand.NewSource(seed))
	e := newEngine(t, nil)
	cc := CommandContext{Cwd: tree, Home: filepath.Join(root, "home"), Facts: NoFacts{}}
	before := snapshot(t, tree)
	allowed, asked := 0, 0
	for range 1500 {
		var b strings.Builder
		b.WriteString("find")
		if rng.Intn(3) == 0 {
			b.WriteString(" " + []string{"-L", "-H", "-P"}[rng.Intn(3)])
		}
		b.WriteString(" " + []string{".", "sub", "./sub", "a.txt", "."}[rng.Intn(5)])
		for k := 1 + rng.Intn(4); k > 0; k-- {
			b.WriteString(" " + frags[rng.Intn(len(frags))])
		}
		c := b.String()
		d := decideCmd(e, c, cc)
		if d.Decision != Allow {
			asked++
			continue
		}
		allowed++
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", c)
		cmd.Dir = tree
		cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + cc.Home, "LC_ALL=C"}
		out, _ := cmd.CombinedOutput()
		cancel()
		if b, err := os.ReadFile(canary); err == nil {
			t.Errorf("%q allowed and ran a program: %s", c, b)
			os.Remove(canary)
		}
		if after := snapshot(t, tree); after != before {
			t.Errorf("%q allowed and changed the tree:\n%s\n--- out:\n%s", c, after, out)
			os.RemoveAll(tree)
			t.FailNow()
		}
	}
	t.Logf("%d find commands: %d allowed left the tree alone, %d asked", allowed+asked, allowed, asked)
	if allowed < 100 {
		t.Errorf("only %d allowed: the corpus proves little", allowed)
	}
}
