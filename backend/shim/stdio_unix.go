//go:build unix

package shim

import (
	"os"

	"golang.org/x/sys/unix"
)

// redirectStdio points the shim's own stdout and stderr at f, the log of
// the run it now serves: what the runtime itself writes there (a panic, a
// race report) belongs to that run, whose log the supervisor reads when
// the shim dies. The supervisor opened the first run's log as both.
func redirectStdio(f *os.File) error {
	for _, fd := range []int{1, 2} {
		if err := unix.Dup2(int(f.Fd()), fd); err != nil {
			return err
		}
	}
	return nil
}
