//go:build unix

package gitcmd_test

import (
	"os"
	"os/exec"
	"strings"
)

func lookGit() (string, error) { return exec.LookPath("git") }

// processAlive reports whether pid runs (Linux: a zombie awaiting its
// reaper counts as ended; elsewhere the check is skipped).
func processAlive(pid string) bool {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
