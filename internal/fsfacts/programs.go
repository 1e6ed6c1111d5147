package fsfacts

import (
	"os"
	"path/filepath"
	"strings"
)

// pathExt are the extensions cmd.exe tries for a bare program name when
// PATHEXT is not set.
const pathExt = ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC"

// LocalProgram implements policy.Facts: whether dir holds name, or
// name with an extension of PATHEXT, which cmd.exe would run before the
// program of that name on PATH.
func (d Disk) LocalProgram(dir, name string) bool {
	if dir == "" || name == "" || strings.ContainsAny(name, `\/`) {
		return false
	}
	exts := os.Getenv("PATHEXT")
	if exts == "" {
		exts = pathExt
	}
	cands := []string{name}
	for _, e := range strings.Split(exts, ";") {
		if e != "" {
			cands = append(cands, name+e, name+strings.ToLower(e))
		}
	}
	for _, c := range cands {
		if fi, err := os.Stat(filepath.Join(dir, c)); err == nil && !fi.IsDir() {
			return true
		}
	}
	return false
}
