// Package peercred checks that the process on the other end of a local
// socket belongs to this user. The HTTP API socket and the per-run shim
// control socket both admit only same-user peers; keeping the check in one
// place keeps the two guards from drifting apart.
package peercred

import (
	"context"
	"errors"
	"net"
)

var (
	// ErrNotUnix: the connection is not a Unix domain socket, so it carries
	// no peer credentials to check.
	ErrNotUnix = errors.New("peercred: not a unix connection")
	// ErrOtherUser: the peer runs as another user.
	ErrOtherUser = errors.New("peercred: peer is another user")
)

// Dial connects to the Unix socket at path and keeps the connection only
// if the server on it runs as this user: a message, a token or a spec
// must never go to whoever took the socket's place. A refused peer's error
// wraps ErrOtherUser (or ErrNotUnix); a failed dial's is the dialer's.
func Dial(ctx context.Context, path string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, "unix", path)
	if err != nil {
		return nil, err
	}
	if err := Check(c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Refused reports whether err is Dial refusing the peer (not a failed dial).
func Refused(err error) bool { return errors.Is(err, ErrOtherUser) || errors.Is(err, ErrNotUnix) }
