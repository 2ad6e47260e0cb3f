//go:build linux

package execlaunch

import (
	"os"
	"syscall"
)

// sysProcAttr puts the child in a new process group and asks the kernel to
// SIGKILL it when the thread that started it dies, so a crashed shim never
// leaves an orphaned agent behind. (Pdeathsig is tied to the starting OS
// thread; Go only retires threads that a goroutine locked and never
// unlocked, which nothing in this program does.)
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

func killGroup(p *os.Process) error {
	// Negative pid: the whole group (pgid == child's pid thanks to Setpgid).
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
		return err
	}
	return nil
}
