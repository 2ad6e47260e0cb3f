package datadir

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/testkit/tmpfs"
)

// tmpfsOrSkip mounts a tmpfs of size for a root-only test and returns it
// with a function that makes it read-only (testkit/tmpfs).
func tmpfsOrSkip(t *testing.T, size string) (dir string, readOnly func()) {
	dir = tmpfs.Mount(t, size)
	return dir, func() { tmpfs.ReadOnly(t, dir) }
}
