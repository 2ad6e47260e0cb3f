// Package fakeagent is the scripted ACP agent for tests: the product's demo
// agent engine (backend/demoagent) serving, beside its user-facing
// scenarios, the ones only tests need (scenarios/*.json here: crash, hang,
// flood, malformed, fail, hostile, escape, terminal). Tests run it as a
// binary (Build, cmd/fakeagent) or through testkit/shimhost's
// `demo-agent`; the browser end-to-end test points the demo agent's
// command at it (setting agents.demo). See docs/ARCHITECTURE.md §Testing.
package fakeagent

import (
	"embed"
	"io/fs"
	"os"

	"github.com/hermesdesk/hermesdesk/backend/demoagent"
)

//go:embed scenarios/*.json
var scenarioFS embed.FS

// TestScenarios are the scenarios this kit adds to the demo agent's.
func TestScenarios() fs.FS {
	sub, err := fs.Sub(scenarioFS, "scenarios")
	if err != nil {
		panic(err) // the embed pattern above guarantees the dir
	}
	return sub
}

// Scenarios returns every scenario the fake agent plays, by name.
func Scenarios() (map[string]*demoagent.Scenario, error) {
	return demoagent.Scenarios(TestScenarios())
}

// StateEnv names the directory where the fake agent keeps its sessions, so
// a later process can session/load them (resume tests) without touching
// the data dir's demo-agent/.
const StateEnv = "HERMESDESK_FAKEAGENT_STATE"

// ReplayEnv set to ReplayAfter in the agent's environment makes
// session/load answer first and replay the history shortly after, as
// Gemini CLI 0.61.0 does (demoagent.Options.ReplayAfterAnswer).
const (
	ReplayEnv   = "HERMESDESK_FAKEAGENT_REPLAY"
	ReplayAfter = "after"
)

// ConfigEnv set to ConfigOptions makes the agent report its settings as
// session config options only (model, mode, thought level, a switch), as
// OpenCode and codex-acp do (demoagent.Options.ConfigOptions).
const (
	ConfigEnv     = "HERMESDESK_FAKEAGENT_CONFIG"
	ConfigOptions = "options"
)

// Main runs the fake agent on this process's stdio and returns the exit
// code; args are those after "demo-agent". It takes the same flags as
// `hermesdesk demo-agent`.
func Main(args []string) int {
	return demoagent.Run(args, demoagent.Options{
		StateDir:          os.Getenv(StateEnv),
		Scenarios:         TestScenarios(),
		ReplayAfterAnswer: os.Getenv(ReplayEnv) == ReplayAfter,
		ConfigOptions:     os.Getenv(ConfigEnv) == ConfigOptions,
	})
}
