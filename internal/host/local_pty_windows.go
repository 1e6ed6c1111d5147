package host

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/conpty"
	"golang.org/x/sys/windows"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// conDrain is how long the pseudo console may still deliver output after
// its program exited before it is closed (which ends the output with EOF).
const conDrain = 200 * time.Millisecond

// StartPTY implements Host with a Windows pseudo console (ConPTY). The
// program runs as the shell given the script (cmd.exe /d /s /c "…",
// PowerShell -EncodedCommand, bash -c) inside a kill-on-close Job Object,
// so Close, and nb's own end, take every process it started along.
func (l *Local) StartPTY(ctx context.Context, c *PTYCommand) (Terminal, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start pty: %w", err)
	}
	sh, err := l.shell()
	if err != nil {
		return nil, fmt.Errorf("start pty: %w", err)
	}
	argv, cmdLine := ptyInvocation(sh, c.Script)
	rows, cols := c.Rows, c.Cols
	if rows <= 0 {
		rows = 24
	}
	if cols <= 0 {
		cols = 80
	}
	cpty, err := conpty.New(cols, rows, 0)
	if err != nil {
		return nil, fmt.Errorf("start pty: pseudo console: %w", err)
	}
	job, err := newKillOnCloseJob()
	if err != nil {
		cpty.Close()
		return nil, fmt.Errorf("start pty: %w", err)
	}
	base := CommandEnv(l.Env, l.EnvPolicy)
	env := append(append([]string{}, base...), c.Env...)
	if cmdLine == "" {
		cmdLine = windows.ComposeCommandLine(argv)
	}
	pid, handle, err := spawnOnConsole(cpty, sh, cmdLine, c.Dir, env)
	if err != nil {
		windows.CloseHandle(job)
		cpty.Close()
		return nil, fmt.Errorf("start pty: %w", err)
	}
	if err := adopt(job, uint32(pid)); err != nil {
		windows.TerminateProcess(windows.Handle(handle), terminatedCode)
		windows.CloseHandle(windows.Handle(handle))
		windows.CloseHandle(job)
		cpty.Close()
		return nil, fmt.Errorf("start pty: %w", err)
	}
	t := &conTerminal{cpty: cpty, job: job, proc: windows.Handle(handle), done: make(chan struct{})}
	go t.wait()
	return t, nil
}

// spawnOnConsole starts exe suspended and attached to the pseudo console,
// as Microsoft's pseudo console documentation does it: the attribute list
// carries the console, the standard handles are null (STARTF_USESTDHANDLES),
// none inherited.
func spawnOnConsole(cpty *conpty.ConPty, exe, cmdLine, dir string, env []string) (int, uintptr, error) {
	attrs, err := windows.NewProcThreadAttributeList(1)
	if err != nil {
		return 0, 0, err
	}
	defer attrs.Delete()
	// the attribute's value is the HPCON itself, not a pointer to it
	hpc := windows.Handle(cpty.Fd())
	if err := attrs.Update(windows.PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE, *(*unsafe.Pointer)(unsafe.Pointer(&hpc)), unsafe.Sizeof(hpc)); err != nil {
		return 0, 0, err
	}
	si := &windows.StartupInfoEx{ProcThreadAttributeList: attrs.List()}
	si.Cb = uint32(unsafe.Sizeof(*si))
	// Without STARTF_USESTDHANDLES Windows copies nb's own standard
	// handles into the child when they are pipes or files (nb mcp serve),
	// and the program writes there instead of to the pseudo console
	// (microsoft/terminal#11276). Null handles leave it only the console.
	si.Flags |= windows.STARTF_USESTDHANDLES
	si.StdInput, si.StdOutput, si.StdErr = 0, 0, 0
	exeP, err := windows.UTF16PtrFromString(exe)
	if err != nil {
		return 0, 0, err
	}
	lineP, err := windows.UTF16PtrFromString(cmdLine)
	if err != nil {
		return 0, 0, err
	}
	var dirP *uint16
	if dir != "" {
		if dirP, err = windows.UTF16PtrFromString(dir); err != nil {
			return 0, 0, err
		}
	}
	var block []uint16
	for _, kv := range env {
		u, err := windows.UTF16FromString(kv)
		if err != nil {
			return 0, 0, err
		}
		block = append(block, u...)
	}
	block = append(block, 0)
	var pi windows.ProcessInformation
	flags := uint32(windows.CREATE_UNICODE_ENVIRONMENT | windows.EXTENDED_STARTUPINFO_PRESENT | windows.CREATE_SUSPENDED)
	if err := windows.CreateProcess(exeP, lineP, nil, nil, false, flags, &block[0], dirP, &si.StartupInfo, &pi); err != nil {
		return 0, 0, err
	}
	windows.CloseHandle(pi.Thread)
	return int(pi.ProcessId), uintptr(pi.Process), nil
}

// ptyInvocation is the argv (and for cmd.exe the raw command line) that
// runs script interactively: as shellInvocation, without the directory
// measurement and without PowerShell's -NonInteractive.
func ptyInvocation(shell, script string) (argv []string, cmdLine string) {
	switch sysinfo.KindOf(shell) {
	case sysinfo.ShellCmd:
		return []string{shell}, quoteExe(shell) + ` /d /s /c "` + script + `"`
	case sysinfo.ShellPowerShell:
		return []string{shell, "-NoLogo", "-NoProfile", "-EncodedCommand", encodePS(script)}, ""
	}
	return []string{shell, "-c", script}, ""
}

// conTerminal is a program on a pseudo console.
type conTerminal struct {
	cpty *conpty.ConPty
	job  windows.Handle
	proc windows.Handle
	done chan struct{}
	code int

	wmu       sync.Mutex
	conOnce   sync.Once
	closeOnce sync.Once
}

func (t *conTerminal) wait() {
	windows.WaitForSingleObject(t.proc, windows.INFINITE)
	var code uint32
	if err := windows.GetExitCodeProcess(t.proc, &code); err != nil {
		t.code = -1
	} else {
		t.code = int(code)
	}
	close(t.done)
	time.Sleep(conDrain)
	t.closeCon()
}

// closeCon closes the pseudo console: readers get what was written, then
// EOF.
func (t *conTerminal) closeCon() { t.conOnce.Do(func() { t.cpty.Close() }) }

// Read implements io.Reader; the end of the output reads as io.EOF.
func (t *conTerminal) Read(p []byte) (int, error) {
	n, err := t.cpty.Read(p)
	if err != nil {
		if n > 0 {
			return n, nil
		}
		return 0, io.EOF
	}
	return n, nil
}

// Write implements io.Writer: it types p into the console.
func (t *conTerminal) Write(p []byte) (int, error) {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	select {
	case <-t.done:
		return 0, fmt.Errorf("write pty: %w", os.ErrClosed)
	default:
	}
	n, err := t.cpty.Write(p)
	if err != nil {
		return n, fmt.Errorf("write pty: %w", err)
	}
	return n, nil
}

// Resize implements Terminal.
func (t *conTerminal) Resize(rows, cols int) error {
	if err := t.cpty.Resize(cols, rows); err != nil {
		return fmt.Errorf("resize pty: %w", err)
	}
	return nil
}

// Done implements Terminal.
func (t *conTerminal) Done() <-chan struct{} { return t.done }

// ExitCode implements Terminal; valid once Done is closed.
func (t *conTerminal) ExitCode() int {
	select {
	case <-t.done:
		return t.code
	default:
		return -1
	}
}

// Foreground reports the program typed input reaches: the program nb
// started while it runs alone in its job, else the newest process of the
// job (a program the shell started), which is not the leader. Windows has
// no foreground process group; this errs towards "not the shell".
func (t *conTerminal) Foreground() (name string, leader bool, ok bool) {
	pids, err := jobPids(t.job)
	if err != nil || len(pids) == 0 {
		return "", false, false
	}
	leaderPid, err := windows.GetProcessId(t.proc)
	if err != nil {
		return "", false, false
	}
	if len(pids) == 1 && pids[0] == leaderPid {
		return processName(leaderPid), true, true
	}
	last := pids[len(pids)-1]
	if last == leaderPid {
		last = pids[0]
	}
	return processName(last), false, true
}

// Close implements Terminal: every process of the job ends, then the
// console is freed.
func (t *conTerminal) Close() error {
	t.closeOnce.Do(func() {
		windows.TerminateJobObject(t.job, terminatedCode)
		select {
		case <-t.done:
		case <-time.After(5 * time.Second):
		}
		t.closeCon()
		windows.CloseHandle(t.job)
		select {
		case <-t.done:
			windows.CloseHandle(t.proc)
		default: // still running after the job was killed: keep the handle wait uses
		}
	})
	return nil
}
