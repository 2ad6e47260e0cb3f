package supervisor

import (
	"os"
	"syscall"
)

// detachedAttr starts a shim detached from main's console, in its own
// process group, so it outlives main.
func detachedAttr() *syscall.SysProcAttr {
	const detachedProcess = 0x00000008
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}

// killAgentGroup ends a dead shim's agent. Windows has no process groups
// to signal; without a job object (not yet) only the agent itself goes.
func killAgentGroup(pid int) {
	if pid <= 0 {
		return
	}
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// processAlive: a warm record's shim still runs (a record of a dead shim
// fails its control call anyway).
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
