//go:build windows

package changes

import "os"

// holdLock keeps path open: Windows will not delete a file that is open.
func holdLock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
}

// lockFree: the file can be deleted, so no process holds it open.
func lockFree(path string) bool {
	return os.Remove(path) == nil
}
