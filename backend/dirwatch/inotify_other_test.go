//go:build !linux

package dirwatch

func inotifyAvailable() bool      { return false }
func noInotify() (restore func()) { return func() {} }
