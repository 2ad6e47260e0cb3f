package control

import "errors"

// ErrLocked: another process (or another open file in this one) holds the lock.
var ErrLocked = errors.New("control: lock is held")

// Lock is an exclusive advisory lock on a file, held until Unlock or until
// the process dies — which is what makes it a fence: the kernel releases it
// exactly when its holder can no longer act (docs/ARCHITECTURE.md §Fencing).
type Lock struct{ release func() error }

// Unlock releases the lock. It is safe to call more than once.
func (l *Lock) Unlock() error {
	if l == nil || l.release == nil {
		return nil
	}
	r := l.release
	l.release = nil
	return r()
}
