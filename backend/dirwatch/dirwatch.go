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

// Changes sends (without blocking; one pending signal folds many) each time
// an entry of dir is created, linked, renamed in or out, deleted, or closed
// after writing: how files written atomically (temp file + rename) appear
// and how a file is replaced or removed. Writes to files that stay open
// (a database, a log) do not count. It lets a waiter re-read a file when it
// may have changed instead of polling for it. stop releases the watch.
func Changes(dir string) (changed <-chan struct{}, stop func(), err error) {
	return changes0(dir)
}
