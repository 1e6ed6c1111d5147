package host

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

func TestPhaseTiming(t *testing.T) {
	l := &Local{}
	defer l.Close()
	dir := t.TempDir()
	ctx := context.Background()
	var a, b time.Duration
	n := 200
	for i := 0; i < n; i++ {
		st := time.Now()
		l.Run(ctx, &Command{Script: "true", Dir: dir})
		a += time.Since(st)
		st = time.Now()
		c := exec.Command("bash", "-c", "true")
		c.Dir = dir
		c.Run()
		b += time.Since(st)
	}
	t.Logf("local %v bare %v", a/time.Duration(n), b/time.Duration(n))
}
