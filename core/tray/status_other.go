//go:build !linux

package tray

// setStatus: macOS and Windows trays have no attention status; the icon
// itself says "needs you".
func setStatus(bool) error { return nil }
