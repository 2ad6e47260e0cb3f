// Package peercred checks that the process on the other end of a local
// socket belongs to this user. The HTTP API socket and the per-run shim
// control socket both admit only same-user peers; keeping the check in one
// place keeps the two guards from drifting apart.
package peercred

import "errors"

var (
	// ErrNotUnix: the connection is not a Unix domain socket, so it carries
	// no peer credentials to check.
	ErrNotUnix = errors.New("peercred: not a unix connection")
	// ErrOtherUser: the peer runs as another user.
	ErrOtherUser = errors.New("peercred: peer is another user")
)
