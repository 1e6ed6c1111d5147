package proctest

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// canList reports whether leftovers can be found: always, with Toolhelp.
func canList() bool { return true }

// leftovers lists the running processes descending from this one, by the
// parent ids of a Toolhelp snapshot. The environment mark cannot be read
// from other processes here, so a process whose parent chain is broken (its
// parent exited) is not found.
func leftovers() []Proc {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(snap)
	type entry struct {
		parent uint32
		name   string
	}
	procs := map[uint32]entry{}
	pe := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &pe); err == nil; err = windows.Process32Next(snap, &pe) {
		procs[pe.ProcessID] = entry{pe.ParentProcessID, windows.UTF16ToString(pe.ExeFile[:])}
	}
	self := uint32(os.Getpid())
	var out []Proc
	for pid, e := range procs {
		if pid == self {
			continue
		}
		owned := false
		for q, hops := e.parent, 0; q != 0 && hops < 64; hops++ {
			if q == self {
				owned = true
				break
			}
			pp, ok := procs[q]
			if !ok || pp.parent == q {
				break
			}
			q = pp.parent
		}
		if owned {
			out = append(out, Proc{Pid: int(pid), PPid: int(e.parent), State: "R", Cmdline: e.name})
		}
	}
	return out
}
