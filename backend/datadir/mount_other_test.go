//go:build !linux

package datadir

import "testing"

func tmpfsOrSkip(t *testing.T, size string) (string, func()) {
	t.Skip("read-only mounts are tested on Linux")
	return "", nil
}
