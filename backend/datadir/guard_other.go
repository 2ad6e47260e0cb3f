//go:build !unix

package datadir

import (
	"errors"
	"os"
)

// fileID without inodes: only presence is checked (a folder deleted and
// created again is not noticed here).
type fileID struct{}

func identity(path string) (fileID, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fileID{}, os.ErrNotExist
		}
		return fileID{}, err
	}
	return fileID{}, nil
}

func writable(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.IsDir() && st.Mode().Perm()&0o200 == 0 {
		return os.ErrPermission
	}
	return nil
}

func freeBytes(string) (uint64, error) { return 0, errors.ErrUnsupported }
