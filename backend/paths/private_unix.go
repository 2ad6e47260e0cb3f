//go:build unix

package paths

import (
	"io/fs"
	"syscall"
)

// privateModes: permission bits mean what they say here.
const privateModes = true

func ownerOf(st fs.FileInfo) (int, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid), true
	}
	return 0, false
}
