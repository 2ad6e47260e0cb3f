// Package paths says where Hermes Desk keeps its data and its sockets on
// each OS. HERMESDESK_HOME overrides the data dir everywhere.
package paths

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// EnvHome overrides the data dir.
const EnvHome = "HERMESDESK_HOME"

// AppDirName is the folder name under the OS's per-user data location.
const AppDirName = "hermesdesk"

// DataDir returns the data dir: $HERMESDESK_HOME, else the OS's per-user
// data location (XDG data home, Application Support, %AppData%).
// It does not create it; see Ensure.
func DataDir() (string, error) {
	return dataDir(runtime.GOOS, os.Getenv, os.UserHomeDir)
}

func dataDir(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	if v := getenv(EnvHome); v != "" {
		return filepath.Abs(v)
	}
	switch goos {
	case "windows":
		if v := getenv("APPDATA"); v != "" {
			return filepath.Join(v, "HermesDesk"), nil
		}
	case "darwin":
		h, err := home()
		if err != nil {
			return "", fmt.Errorf("data dir: %w", err)
		}
		return filepath.Join(h, "Library", "Application Support", "HermesDesk"), nil
	default:
		if v := getenv("XDG_DATA_HOME"); v != "" && filepath.IsAbs(v) {
			return filepath.Join(v, AppDirName), nil
		}
	}
	h, err := home()
	if err != nil {
		return "", fmt.Errorf("data dir: %w", err)
	}
	if goos == "windows" {
		return filepath.Join(h, "AppData", "Roaming", "HermesDesk"), nil
	}
	return filepath.Join(h, ".local", "share", AppDirName), nil
}

// RuntimeDir returns the 0700 dir for unix sockets: $XDG_RUNTIME_DIR/hermesdesk
// where that exists, else a per-user dir under the temp dir. Socket paths are
// limited to ~104 bytes, so this stays short and separate from the data dir.
// When HERMESDESK_HOME is set, the runtime dir is keyed by it so that two
// data dirs (tests, serve beside the app) never share sockets.
func RuntimeDir(dataDir string) string {
	base := os.Getenv("XDG_RUNTIME_DIR")
	if base == "" || !isDir(base) {
		base = filepath.Join(os.TempDir(), "hermesdesk-"+strconv.Itoa(os.Getuid()))
		return filepath.Join(base, shortHash(dataDir))
	}
	return filepath.Join(base, AppDirName, shortHash(dataDir))
}

// Ensure creates the data dir (0700) and checks it is writable, with an
// error a person can act on. An existing data dir other users can open is
// made private (it holds transcripts and the serve token); one that belongs
// to another user is refused (docs/ARCHITECTURE.md §Security, files).
func Ensure(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	if err := tighten(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return errors.Join(os.Remove(name))
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// shortHash is 8 hex chars of FNV-1a over s: enough to keep data dirs apart.
func shortHash(s string) string {
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return fmt.Sprintf("%08x", h)
}
