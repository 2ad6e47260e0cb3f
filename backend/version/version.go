// Package version carries the build's version, set by the linker
// (see the Makefile's LDFLAGS).
package version

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
)

// Version is the release, e.g. "0.1.0"; "dev" in an unflagged build.
var Version = "dev"

// Commit is the short git commit the binary was built from.
var Commit = "unknown"

// String is "0.1.0 (abc1234)".
func String() string { return Version + " (" + Commit + ")" }

// ProgramSum is the hex sha256 of a program file: with Version it names a
// copy of this program — the per-version copy shims run from
// (supervisor, docs/ARCHITECTURE.md §Durability) and the copy on a remote
// host, checked on the far side before it takes its name (§Hosts).
func ProgramSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
