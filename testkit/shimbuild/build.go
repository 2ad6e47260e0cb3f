// Package shimbuild builds testkit/shimhost for the tests that run real
// shims: the app's `shim` subcommand and `demo-agent` with the test kit's
// scenarios (crash, hang, flood…) the shipped demo agent does not carry.
// The full app needs the frontend bundle and Wails; this does not.
package shimbuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Tags are the build tags the shims are built with.
const Tags = "sqlite_fts5,webkit2_41"

// Build builds shimhost as dir/hermesdesk (with the race detector when
// race is set) and returns its path.
func Build(dir string, race bool) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("find the module's root: %w", err)
	}
	bin := filepath.Join(dir, "hermesdesk")
	args := []string{"build", "-tags", Tags, "-o", bin}
	if race {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "./testkit/shimhost")...)
	cmd.Dir = strings.TrimSpace(string(out))
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build shimhost: %v\n%s", err, msg)
	}
	return bin, nil
}

// Main is a TestMain's body for a package whose tests need only the
// binary: it builds shimhost into a temporary folder, stores its path in
// *bin, runs the tests and exits with their code.
func Main(m interface{ Run() int }, bin *string) {
	dir, err := os.MkdirTemp("", "hd-shimhost-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*bin, err = Build(dir, false)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
