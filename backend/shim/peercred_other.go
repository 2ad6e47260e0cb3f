//go:build !linux

package shim

import "net"

// checkPeer: outside Linux the socket's 0600 mode inside a 0700 directory
// and the per-run token are the guard.
func checkPeer(net.Conn) error { return nil }
