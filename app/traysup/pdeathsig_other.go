//go:build !linux

package traysup

import "os/exec"

// Elsewhere the helper relies on stdin EOF, which the OS delivers when the
// app's end of the pipe closes, however the app ended.
func setParentDeathSignal(*exec.Cmd) {}
