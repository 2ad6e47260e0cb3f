//go:build unix

package acp

import (
	"os"
	"syscall"
)

// terminalProcAttr gives each terminal command its own process group so a
// kill takes its children too.
func terminalProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }

func shellCommand(line string) (string, []string) { return "/bin/sh", []string{"-c", line} }

func signalOf(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
