//go:build windows

package gitcmd

import "os/exec"

// Windows has no process groups to signal; git itself is killed and
// waitDelay bounds the wait for children holding its output.
func startProcessGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
