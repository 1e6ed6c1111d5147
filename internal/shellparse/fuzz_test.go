package shellparse

import (
	"fmt"
	"testing"
	"time"
)

func FuzzAnalyse(f *testing.F) {
	for _, s := range []string{
		"ls -la", "a; b && c || d | e & f\ng", "echo $(id) `x` <(y) >(z)", "bash -c 'bash -c \"eval x\"'",
		"cat <<EOF\n$(id)\nEOF", "${x@P}", "a[$(b)]=1", "f() { f | f & }; f", "find . -exec rm {} +",
		"xargs -I{} sh -c '{}'", "env -S 'a b'", "trap 'x' EXIT", "alias a='b; c'", "x=$(( y[$(z)] ))",
		"[[ -v a[$(b)] ]]", "ls\r\n", "ls\u00a0-la", "$'\\x72\\x6d' -rf /", "r\\\nm", "{a,b}", "coproc x",
		"time -p x", "sudo -s", "exec 3>&1 >file", "echo >&file 2>&1 &>x >|y", ": $(: $(: $(:)))",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		timer := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("analysis of %q takes over 5s", src)) })
		defer timer.Stop()
		a := Analyse(src, Options{Home: "/home/u", Interactive: len(src)%2 == 0})
		if a.Err != nil {
			return
		}
		for _, l := range a.Leaves {
			if len(l.Words) == 0 {
				t.Fatalf("%q: empty leaf", src)
			}
			_ = l.Text()
			_ = l.Base()
		}
	})
}
