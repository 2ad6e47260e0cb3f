// Package autostart turns "start at login" on and off for the current user:
// an XDG autostart .desktop file on Linux and the BSDs, a LaunchAgent plist
// with RunAtLoad on macOS, the per-user Run key on Windows. It imports no GUI
// package so that every backend's output is unit-tested on any OS.
package autostart

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// BackgroundFlag is the argument the login entry passes so the app starts
// hidden in the tray.
const BackgroundFlag = "--background"

// ErrUnsupported is returned on an OS without a backend.
var ErrUnsupported = errors.New("start at login is not supported on this system")

// Entry says what to start at login.
type Entry struct {
	ID      string   // stable identifier: file name, plist label, Run value name
	Name    string   // shown to people
	Comment string   // one line
	Exec    string   // absolute path of the program
	Args    []string // e.g. BackgroundFlag
}

// Manager writes, removes and reads the login entry. Enabled reports what is
// on disk (or in the registry), never a cached guess.
type Manager interface {
	Enabled() (bool, error)
	Enable() error
	Disable() error
	// Location is where the entry lives, for logs and the README.
	Location() string
}

// Env is what a Manager needs from the process, injectable for tests.
type Env struct {
	GOOS    string
	Getenv  func(string) string
	HomeDir func() (string, error)
	// RunKey is the Windows registry key; nil means the real HKCU Run key.
	RunKey RunKey
}

// New returns the manager for the current OS.
func New(e Entry) (Manager, error) {
	return NewFor(e, Env{GOOS: runtime.GOOS, Getenv: os.Getenv, HomeDir: os.UserHomeDir})
}

// NewFor returns the manager for env.GOOS.
func NewFor(e Entry, env Env) (Manager, error) {
	if e.ID == "" || e.Exec == "" {
		return nil, fmt.Errorf("autostart: entry needs an ID and a program path")
	}
	switch env.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		dir, err := xdgConfigHome(env)
		if err != nil {
			return nil, err
		}
		return &xdg{entry: e, path: filepath.Join(dir, "autostart", e.ID+".desktop")}, nil
	case "darwin":
		home, err := env.HomeDir()
		if err != nil {
			return nil, fmt.Errorf("autostart: %w", err)
		}
		return &launchAgent{entry: e, path: filepath.Join(home, "Library", "LaunchAgents", e.ID+".plist")}, nil
	case "windows":
		k := env.RunKey
		if k == nil {
			k = hkcuRun{}
		}
		return &runKey{entry: e, key: k}, nil
	}
	return nil, ErrUnsupported
}

func xdgConfigHome(env Env) (string, error) {
	if v := env.Getenv("XDG_CONFIG_HOME"); v != "" && filepath.IsAbs(v) {
		return v, nil
	}
	home, err := env.HomeDir()
	if err != nil {
		return "", fmt.Errorf("autostart: %w", err)
	}
	return filepath.Join(home, ".config"), nil
}

// ProgramPath is the path the login entry should start: $APPIMAGE when
// running from an AppImage (the binary itself lives in a temporary mount),
// else the running executable with symlinks resolved.
func ProgramPath(getenv func(string) string, executable func() (string, error)) (string, error) {
	if p := getenv("APPIMAGE"); p != "" && filepath.IsAbs(p) {
		return p, nil
	}
	exe, err := executable()
	if err != nil {
		return "", fmt.Errorf("autostart: locate program: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, nil
}

// writeFileAtomic writes data next to path and renames it into place, so a
// crash never leaves a half-written login entry.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("autostart: write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("autostart: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("autostart: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("autostart: remove %s: %w", path, err)
	}
	return nil
}
