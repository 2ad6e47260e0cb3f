//go:build unix

package gitcmd

import (
	"os/exec"
	"syscall"
)

// startProcessGroup puts git in a group of its own, so a cancel reaches
// every child it started (a hook's grandchild included).
func startProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup ends git's whole group.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
