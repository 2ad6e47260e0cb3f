//go:build unix && !linux

package execlaunch

import (
	"os"
	"syscall"
)

// sysProcAttr puts the child in a new process group. There is no
// parent-death signal outside Linux; the shim's supervisor reaps orphans.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(p *os.Process) error {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
		return err
	}
	return nil
}
