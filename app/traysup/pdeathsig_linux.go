package traysup

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal makes the kernel send SIGTERM to the helper when the
// app dies without closing the pipe cleanly (kill -9, crash).
func setParentDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
}
