//go:build !linux

package hosts

import "os/exec"

// dieWithCore: only Linux can tie a child's life to its parent's; elsewhere
// a core killed -9 leaves the link's ssh until its ServerAlive check.
func dieWithCore(*exec.Cmd) (release func()) { return func() {} }
