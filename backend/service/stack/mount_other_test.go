//go:build !linux

package stack

import "testing"

func tmpfsOrSkip(t *testing.T, size string) (string, func()) {
	t.Skip("mounts are tested on Linux")
	return "", nil
}

func fillDisk(t *testing.T, dir string) {}
