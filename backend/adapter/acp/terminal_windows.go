//go:build windows

package acp

import (
	"os"
	"syscall"
)

func terminalProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

func killGroup(p *os.Process) { _ = p.Kill() }

func shellCommand(line string) (string, []string) { return "cmd.exe", []string{"/C", line} }

func signalOf(*os.ProcessState) string { return "" }
