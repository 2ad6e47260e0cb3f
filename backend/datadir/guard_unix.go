//go:build unix

package datadir

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

type fileID struct{ dev, ino uint64 }

func identity(path string) (fileID, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return fileID{}, os.ErrNotExist
		}
		return fileID{}, err
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}

// writable: a missing file (no WAL yet) is fine; EACCES (mode), EPERM
// (chattr +i) and EROFS (a read-only mount) are not.
func writable(path string) error {
	err := unix.Access(path, unix.W_OK)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	return err
}

func freeBytes(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}
