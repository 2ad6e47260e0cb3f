//go:build unix

package supervisor

import "syscall"

// detachedAttr starts a shim in its own session: no signal aimed at main's
// terminal or process group reaches it, and it outlives main. No
// parent-death signal, by design.
func detachedAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}

// killAgentGroup kills a dead shim's agent group. The group id is the
// recorded agent pid; it is only signalled while a process still leads a
// group of that id, which is what a surviving agent looks like.
func killAgentGroup(pid int) {
	if pid <= 0 {
		return
	}
	if pg, err := syscall.Getpgid(pid); err != nil || pg != pid {
		return
	}
	syscall.Kill(-pid, syscall.SIGKILL)
}

// processAlive: pid names a live process (one of another user counts).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
