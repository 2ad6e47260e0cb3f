package shim

import (
	"os"
	"syscall"
)

// killGroup on Windows: there are no signals, so SIGTERM cannot be asked
// politely; only SIGKILL acts, and it ends the agent process itself. Its
// children survive until a job object is added (docs/ARCHITECTURE.md §Processes, Windows).
func killGroup(pid int, sig syscall.Signal) error {
	if pid <= 0 || sig != syscall.SIGKILL {
		return nil
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil // gone
	}
	return p.Kill()
}
