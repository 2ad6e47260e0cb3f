// Package version carries the build's version, set by the linker
// (see the Makefile's LDFLAGS).
package version

// Version is the release, e.g. "0.1.0"; "dev" in an unflagged build.
var Version = "dev"

// Commit is the short git commit the binary was built from.
var Commit = "unknown"

// String is "0.1.0 (abc1234)".
func String() string { return Version + " (" + Commit + ")" }
