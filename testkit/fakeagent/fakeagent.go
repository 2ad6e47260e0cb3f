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
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

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

// StartDelayEnv, a duration ("2500ms"), makes the fake agent a slow
// starter: it waits that long before it reads or prints anything, as
// vibe-acp (2.5 s) and cold Node agents do.
const StartDelayEnv = "HERMESDESK_FAKEAGENT_START_DELAY"

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
	if d, err := time.ParseDuration(os.Getenv(StartDelayEnv)); err == nil {
		time.Sleep(d) // a slow start is what this option is for
	}
	return demoagent.Run(args, demoagent.Options{
		StateDir:          os.Getenv(StateEnv),
		Scenarios:         TestScenarios(),
		ReplayAfterAnswer: os.Getenv(ReplayEnv) == ReplayAfter,
		Auth:              authScript(os.Getenv(AuthEnv)),
		ConfigOptions:     os.Getenv(ConfigEnv) == ConfigOptions,
		Fork:              os.Getenv(ForkEnv) == "1",
	})
}

// ForkEnv set to "1" makes the agent offer ACP's unstable session/fork
// (demoagent.Options.Fork).
const ForkEnv = "HERMESDESK_FAKEAGENT_FORK"

// AuthEnv makes the fake agent demand a sign-in before session/new (-32000
// "Authentication required"): AuthTerminal offers a terminal command
// (`<agent> login`, as Kimi CLI does; ACP terminal auth runs the agent's
// program with the method's args in place of the ones that start its ACP
// server, so the fake's args name its own subcommand) and an API key variable and accepts
// no `authenticate`; AuthAgent offers a method the agent handles itself and
// accepts `authenticate` with it.
const (
	AuthEnv      = "HERMESDESK_FAKEAGENT_AUTH"
	AuthTerminal = "terminal"
	AuthAgent    = "agent"
)

func authScript(kind string) *demoagent.Auth {
	switch kind {
	case AuthTerminal:
		return &demoagent.Auth{Methods: []acpsdk.AuthMethod{
			{Terminal: &acpsdk.AuthMethodTerminalInline{Id: "login", Name: "Log in with your account", Type: "terminal", Args: []string{"demo-agent", "login"}}},
			{EnvVar: &acpsdk.AuthMethodEnvVarInline{Id: "api-key", Name: "API key", Type: "env_var", Vars: []acpsdk.AuthEnvVar{{Name: "FAKEAGENT_API_KEY"}}}},
		}}
	case AuthAgent:
		return &demoagent.Auth{Methods: []acpsdk.AuthMethod{
			{Agent: &acpsdk.AuthMethodAgent{Id: "browser", Name: "Sign in with the browser"}},
		}, AcceptMethod: "browser"}
	}
	return nil
}
