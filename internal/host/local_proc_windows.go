package host

import (
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// procTree is everything one command started: on Windows a Job Object
// holding the shell and every process it starts. The job kills its
// processes when its last handle closes, so nothing outlives nb even when
// nb itself is killed.
type procTree struct{ job windows.Handle }

// terminatedCode is the exit code of processes ended by nb.
const terminatedCode = 1

// startTree starts cmd suspended, puts it into a new kill-on-close job and
// resumes it, so even its first child is born inside the job. The command
// gets a console of its own that is never shown: a program asking for a
// password waits on that console (until the timeout) instead of reading
// nb's keyboard, and Ctrl+C in nb's console does not reach it.
func startTree(cmd *exec.Cmd) (*procTree, error) {
	job, err := newKillOnCloseJob()
	if err != nil {
		return nil, err
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return nil, err
	}
	if err := adopt(job, uint32(cmd.Process.Pid)); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		windows.CloseHandle(job)
		return nil, err
	}
	return &procTree{job: job}, nil
}

// newKillOnCloseJob creates an unnamed job whose processes are killed when
// its last handle closes.
func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("job object: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("job object: %w", err)
	}
	return job, nil
}

// adopt assigns the suspended process pid to job and resumes its threads.
func adopt(job windows.Handle, pid uint32) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return fmt.Errorf("open process: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		return fmt.Errorf("job object: %w", err)
	}
	return resumeThreads(pid)
}

// resumeThreads resumes every thread of process pid.
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		resumed++
	}
	if resumed == 0 {
		return fmt.Errorf("resume: no thread of process %d", pid)
	}
	return nil
}

// terminate ends every process of the tree. Windows has no polite signal
// for processes without a shared console, so this is kill.
func (t *procTree) terminate() { t.kill() }

// kill ends every process of the tree.
func (t *procTree) kill() { windows.TerminateJobObject(t.job, terminatedCode) }

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}

// alive reports whether a process of the tree still runs.
func (t *procTree) alive() bool {
	var info jobAccounting
	if err := windows.QueryInformationJobObject(t.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return true
	}
	return info.ActiveProcesses > 0
}

// release closes the job, killing whatever is still in it.
func (t *procTree) release() { windows.CloseHandle(t.job) }

// jobPids lists the processes in job, in the order the job got them.
func jobPids(job windows.Handle) ([]uint32, error) {
	// JOBOBJECT_BASIC_PROCESS_ID_LIST: two counts, then the ids
	// (ULONG_PTR each)
	const max = 256
	var list struct {
		Assigned, InList uint32
		Ids              [max]uintptr
	}
	if err := windows.QueryInformationJobObject(job, windows.JobObjectBasicProcessIdList,
		uintptr(unsafe.Pointer(&list)), uint32(unsafe.Sizeof(list)), nil); err != nil {
		return nil, fmt.Errorf("job processes: %w", err)
	}
	n := min(int(list.InList), max)
	pids := make([]uint32, n)
	for i := range n {
		pids[i] = uint32(list.Ids[i])
	}
	return pids, nil
}

// processName is the executable file name of process pid ("" when it
// cannot be read).
func processName(pid uint32) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_PATH)
	size := uint32(len(buf))
	if err := windows.QueryFullProcessImageName(h, 0, &buf[0], &size); err != nil {
		return ""
	}
	p := windows.UTF16ToString(buf[:size])
	if i := strings.LastIndexAny(p, `\/`); i >= 0 {
		p = p[i+1:]
	}
	return p
}

// nativeDir returns a directory a shell reported as Windows names it. Git
// Bash and MSYS2 bash print drive paths as /c/Users/me; those become
// C:\Users\me. Other POSIX paths (/usr/bin) have no drive-letter name nb
// can know, so they count as unmeasured ("").
func nativeDir(dir string) string {
	if !strings.HasPrefix(dir, "/") {
		return dir
	}
	if len(dir) >= 2 && isDriveLetter(dir[1]) && (len(dir) == 2 || dir[2] == '/') {
		rest := strings.ReplaceAll(dir[2:], "/", `\`)
		if rest == "" {
			rest = `\`
		}
		return strings.ToUpper(dir[1:2]) + ":" + rest
	}
	return ""
}

func isDriveLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
