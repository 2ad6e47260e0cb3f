//go:build !unix

package paths

import "io/fs"

// privateModes: on Windows the per-user profile's ACLs guard the folder;
// Go's permission bits there do not describe them.
const privateModes = false

func ownerOf(fs.FileInfo) (int, bool) { return 0, false }
