package fsfacts

import (
	"os"
	"path/filepath"
	"strings"
)

// bashBuiltins are the commands bash runs itself, whatever PATH says.
var bashBuiltins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`. : [ alias bg bind break builtin caller cd command compgen complete compopt
		continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs
		kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source
		suspend test times trap true type typeset ulimit umask unalias unset wait`) {
		bashBuiltins[n] = true
	}
}

// PathProgram implements policy.Facts: why bash, looking up name
// in the PATH nb's commands run with, may run a file of dir's own tree,
// or "". A relative PATH entry (an empty one, ".", "node_modules/.bin")
// is searched from the directory the command runs in, so a repository
// can hold the program that runs for "ls"; an absolute entry found first
// wins.
func (Disk) PathProgram(dir, name string) string {
	return pathProgram(os.Getenv("PATH"), diskPath(dir), name)
}

func pathProgram(pathList, dir, name string) string {
	if dir == "" || name == "" || strings.Contains(name, "/") || bashBuiltins[name] {
		return ""
	}
	for _, entry := range filepath.SplitList(pathList) {
		rel := !filepath.IsAbs(entry)
		p := filepath.Join(entry, name)
		if rel {
			p = filepath.Join(dir, entry, name)
		}
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			continue
		}
		if !rel {
			return ""
		}
		if entry == "" {
			entry = "an empty entry"
		}
		return "PATH holds " + entry + ", under which " + dir + " has its own " + name
	}
	return ""
}
