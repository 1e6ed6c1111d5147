package shellparse

import (
	"path"
	"strings"
)

// cwdChangers are the commands that can change the directory of the shell
// that runs them (or run text that can).
var cwdChangers = map[string]bool{
	"cd": true, "pushd": true, "popd": true, "source": true, ".": true,
	"eval": true, "builtin": true, "command": true, "exec": true,
}

// DirAfter reports the directory the shell is in after running src when it
// started in dir, when that is certain before it runs: src changes no
// directory at all (dir), or src is exactly one cd to a static target
// (that target, as if the cd succeeds). Anything else that may change the
// directory (a cd among other commands, a dynamic target, cd -, a bare
// relative name that CDPATH may redirect, source, eval, a dynamic command
// name) reports known=false.
func DirAfter(src, dir, home string) (after string, known bool) {
	a := Analyse(src, Options{Home: home})
	if a.Err != nil || len(a.Unknown) > 0 {
		return "", false
	}
	var changers []*Leaf
	for _, l := range a.Leaves {
		if len(l.Words) == 0 {
			continue
		}
		name := l.Name()
		if name == "" {
			return "", false
		}
		if cwdChangers[path.Base(name)] {
			changers = append(changers, l)
		}
	}
	if len(changers) == 0 {
		return dir, true
	}
	l := a.SingleCall
	if len(changers) != 1 || l == nil || l != changers[0] || l.Name() != "cd" || len(l.EnvAssigns) > 0 || len(l.Redirs) > 0 {
		return "", false
	}
	args := l.Words[1:]
	if len(args) > 0 && args[0].Static() && args[0].Text == "--" {
		args = args[1:]
	}
	switch {
	case len(args) == 0:
		if home == "" {
			return "", false
		}
		return path.Clean(home), true
	case len(args) > 1 || !args[0].Static():
		return "", false
	}
	target := args[0].Text
	switch {
	case target == "" || target == "-" || strings.HasPrefix(target, "-"):
		return "", false
	case strings.HasPrefix(target, "/"):
		return path.Clean(target), true
	case target == "." || target == ".." || strings.HasPrefix(target, "./") || strings.HasPrefix(target, "../"):
		if !strings.HasPrefix(dir, "/") {
			return "", false
		}
		return path.Join(dir, target), true
	}
	// A bare relative name is looked up in CDPATH first.
	return "", false
}
