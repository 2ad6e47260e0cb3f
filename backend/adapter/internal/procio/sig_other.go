//go:build !unix

package procio

// Without process groups the launcher's Kill is the only way; Stop uses it.
func terminateGroup(int) {}
func killGroup(int)      {}

// GroupAlive cannot tell on this platform.
func GroupAlive(int) bool { return false }

// Interrupt is a no-op without process groups; Terminate follows.
func Interrupt(int) {}
