// Package dirwatch tells when a directory goes away, without polling where
// the platform can say it (docs/ARCHITECTURE.md §Idle): a shim ends when its
// data dir is deleted or moved (a test's temp dir, an uninstall), and an idle
// shim must not wake once a second to look.
package dirwatch

// Gone reports on the returned channel (closed) once dir no longer exists at
// its path. stop releases what the watch holds; call it when done. An error
// means the watch could not be set up (dir missing, no watch available).
func Gone(dir string) (gone <-chan struct{}, stop func(), err error) {
	return gone0(dir)
}

// Arrivals sends (without blocking; one pending signal folds many) each time
// an entry is renamed into dir or a file in it is closed after writing: how
// files written atomically (temp file + rename) appear. It lets a waiter
// re-read a file when it may have changed instead of polling for it. stop
// releases the watch and closes nothing.
func Arrivals(dir string) (arrived <-chan struct{}, stop func(), err error) {
	return arrivals0(dir)
}
