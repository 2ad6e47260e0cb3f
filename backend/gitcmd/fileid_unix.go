//go:build unix

package gitcmd

import (
	"os"

	"golang.org/x/sys/unix"
)

// fileIDsKnown: this system gives a file's inode and change time, so the
// config read can be reused (configcache.go).
const fileIDsKnown = true

// nullHome is the HOME git runs with ("~/" in an include).
const nullHome = os.DevNull

// identify stats f (following symbolic links, as git opens it); a
// presence-only file, and any folder, says only whether it is there and
// is a folder: what git reads in a folder (.git/config, .git/HEAD) is
// watched on its own, and the folder's times move with every index write.
func identify(f watched) fileID {
	var st unix.Stat_t
	if err := unix.Stat(f.path, &st); err != nil {
		return fileID{}
	}
	id := fileID{exists: true, dir: st.Mode&unix.S_IFMT == unix.S_IFDIR}
	if f.presence || id.dir {
		return id
	}
	id.dev, id.ino, id.size, id.mode = uint64(st.Dev), uint64(st.Ino), st.Size, uint32(st.Mode)
	id.mtime, id.ctime = st.Mtim.Nano(), st.Ctim.Nano()
	return id
}

// searchable: path is a folder git can enter (access X_OK, as git checks
// an object directory).
func searchable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir() && unix.Access(path, unix.X_OK) == nil
}
