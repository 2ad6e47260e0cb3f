package dirwatch

import "syscall"

func inotifyAvailable() bool { return true }

// noInotify makes every inotify instance fail as at the user's limit.
func noInotify() (restore func()) {
	old := inotifyInit
	inotifyInit = func() (int, error) { return -1, syscall.EMFILE }
	return func() { inotifyInit = old }
}
