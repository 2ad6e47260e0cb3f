//go:build windows

package execlaunch

import (
	"os"
	"syscall"
)

// sysProcAttr gives the child its own process group so console control
// events aimed at us do not reach it. Job objects (kill-on-close) are the
// shim's business.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

func killGroup(p *os.Process) error { return p.Kill() }
