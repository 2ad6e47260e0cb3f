package paths

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotPrivate: a folder that must be this user's alone is not.
var ErrNotPrivate = errors.New("folder is not private")

// EnsureRuntimeDir creates the runtime dir (RuntimeDir) 0700 and refuses
// it — and the folder above it that the app created — unless both are
// real directories (no symlinks) owned by this user and closed to others.
// Under the shared temp dir the path is predictable: another local user
// who created it first would receive the app's sockets, so it is refused
// with a message that says what to do, never reused (docs/ARCHITECTURE.md
// §Security, local sockets).
func EnsureRuntimeDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create the folder for Hermes Desk's sockets %s: %w", dir, err)
	}
	if err := checkParent(filepath.Dir(dir), os.Getuid()); err != nil {
		return err
	}
	return checkPrivate(dir, os.Getuid())
}

// checkParent: the folder holding the runtime dir must not let another
// user swap the runtime dir — a real directory of this user or root, and
// if others may write to it, sticky (like /tmp) so they cannot rename or
// delete what is ours.
func checkParent(p string, uid int) error {
	st, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("cannot check %s: %w", p, err)
	}
	if st.Mode()&os.ModeSymlink != 0 || !st.IsDir() {
		return fmt.Errorf("%w: %s is not a plain folder (a link or a file); remove it and start again", ErrNotPrivate, p)
	}
	if owner, ok := ownerOf(st); ok && uid >= 0 && owner != uid && owner != 0 {
		return fmt.Errorf("%w: %s belongs to another user (uid %d); Hermes Desk will not put its sockets there. Remove it (or set XDG_RUNTIME_DIR) and start again", ErrNotPrivate, p, owner)
	}
	if privateModes && st.Mode().Perm()&0o022 != 0 && st.Mode()&os.ModeSticky == 0 {
		return fmt.Errorf("%w: other users can change %s (mode %04o); run chmod 700 on it, or remove it, and start again", ErrNotPrivate, p, st.Mode().Perm())
	}
	return nil
}

func checkPrivate(p string, uid int) error {
	st, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("cannot check %s: %w", p, err)
	}
	if st.Mode()&os.ModeSymlink != 0 || !st.IsDir() {
		return fmt.Errorf("%w: %s is not a plain folder (a link or a file); remove it and start again", ErrNotPrivate, p)
	}
	if owner, ok := ownerOf(st); ok && uid >= 0 && owner != uid {
		return fmt.Errorf("%w: %s belongs to another user (uid %d); Hermes Desk will not put its sockets there. Remove it (or set XDG_RUNTIME_DIR) and start again", ErrNotPrivate, p, owner)
	}
	if privateModes && st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%w: other users can open %s (mode %04o); run chmod 700 on it, or remove it, and start again", ErrNotPrivate, p, st.Mode().Perm())
	}
	return nil
}

// tighten makes dir, a folder of this user, closed to others; a folder of
// another user is refused.
func tighten(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot check %s: %w", dir, err)
	}
	if owner, ok := ownerOf(st); ok && owner != os.Getuid() {
		return fmt.Errorf("%w: %s belongs to another user (uid %d); Hermes Desk keeps your conversations there, so it will not use it. Choose another folder (HERMESDESK_HOME)", ErrNotPrivate, dir, owner)
	}
	if !privateModes || st.Mode().Perm()&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(dir, st.Mode().Perm()&0o700); err != nil {
		return fmt.Errorf("%w: other users can open %s and it could not be made private (%w); run chmod 700 on it", ErrNotPrivate, dir, err)
	}
	return nil
}
