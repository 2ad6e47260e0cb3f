//go:build !linux

package httpapi

import "net"

// checkPeer: outside Linux the socket's 0600 mode inside a 0700 directory
// is the guard (macOS: only this user can connect to it).
func checkPeer(net.Conn) error { return nil }
