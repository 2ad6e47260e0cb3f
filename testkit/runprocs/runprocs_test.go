package runprocs

import (
	"os/exec"
	"testing"
)

func TestAlive(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !alive(cmd.Process.Pid) {
		t.Fatal("a running sleep is not alive")
	}
	_ = cmd.Process.Kill()
	// Not yet reaped: a zombie counts as gone.
	for i := 0; i < 500 && alive(cmd.Process.Pid); i++ {
		exec.Command("true").Run()
	}
	if alive(cmd.Process.Pid) {
		t.Fatal("a killed, unreaped child still counts as alive")
	}
	_ = cmd.Wait()
	if alive(cmd.Process.Pid) {
		t.Fatal("a reaped child counts as alive")
	}
}
