//go:build unix

package procio

import "syscall"

func terminateGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
	}
}

func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// GroupAlive reports whether any process of the group pgid still exists
// (zombies included until reaped).
func GroupAlive(pgid int) bool {
	return pgid > 0 && syscall.Kill(-pgid, 0) == nil
}

// Interrupt sends SIGINT to the process group, as Ctrl-C in a terminal would.
func Interrupt(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGINT)
	}
}
