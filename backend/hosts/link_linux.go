package hosts

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithCore makes the link's ssh end when this process does, even by
// kill -9: otherwise it would hold its ControlMaster connection and the
// forward open for nothing, one more after each crash (docs/ARCHITECTURE.md
// §Hosts, "Joined"). Pdeathsig fires when the forking thread exits, so
// the caller keeps its goroutine on that thread until ssh has ended
// (the returned func undoes it).
func dieWithCore(cmd *exec.Cmd) (release func()) {
	runtime.LockOSThread()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	return runtime.UnlockOSThread
}
