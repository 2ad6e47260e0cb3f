//go:build unix

package shim

import (
	"errors"
	"syscall"
)

// killGroup signals the process group led by pid; a group already gone is
// not an error.
func killGroup(pid int, sig syscall.Signal) error {
	if pid <= 0 {
		return nil
	}
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
