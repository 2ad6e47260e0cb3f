package fakeagent

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Build compiles the standalone fake agent (cmd/fakeagent) into dir and
// returns the binary's path. Tests of the shim and supervisor call it once
// in TestMain, then drive it with the ACP adapter (as agents.Demo(path)): the binary accepts the
// same "demo-agent" first argument as `hermesdesk demo-agent`. Set
// HERMESDESK_FAKEAGENT_STATE in the agent's environment (adapter.Config.Env)
// to keep its sessions in a test's temp dir.
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "fakeagent")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, "github.com/hermesdesk/hermesdesk/testkit/fakeagent/cmd/fakeagent").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building the fake agent: %w\n%s", err, out)
	}
	return bin, nil
}
