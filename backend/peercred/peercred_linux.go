package peercred

import (
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// Check admits only processes of this user (SO_PEERCRED).
func Check(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return ErrNotUnix
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return fmt.Errorf("peercred: %w", err)
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return fmt.Errorf("peercred: %w", err)
	}
	if cerr != nil {
		return fmt.Errorf("peer credentials: %w", cerr)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("%w: peer uid %d is not %d", ErrOtherUser, cred.Uid, os.Getuid())
	}
	return nil
}
