package agents

import (
	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/acp"
)

// The agents Hermes Desk knows. The ACP ones are each the one ACP adapter
// with the agent's command, install hint and capabilities; the native
// adapters (agents.go) get their install hints from here too. Claude Code and Codex
// also have native adapters ("claude", "codex"); their ACP wrappers are
// offered as "claude-acp" and "codex-acp". See docs/ARCHITECTURE.md §Adapters.

// How each agent CLI is installed: one wording per package manager
// (pipx install, npm install -g), the same as the onboarding page's.
const (
	HermesInstall    = "install with: " + hermesCommand
	ClaudeInstall    = "install with: " + claudeCommand
	CodexInstall     = "install with: " + codexCommand
	GeminiInstall    = "install with: " + geminiCommand
	ClaudeACPInstall = "install with: npm install -g @zed-industries/claude-agent-acp"
	CodexACPInstall  = "install with: npm install -g @zed-industries/codex-acp"
	GooseInstall     = "install goose from https://block.github.io/goose/docs/getting-started/installation"
)

const (
	hermesCommand = `pipx install "hermes-agent[acp]"`
	claudeCommand = "npm install -g @anthropic-ai/claude-code"
	codexCommand  = "npm install -g @openai/codex"
	geminiCommand = "npm install -g @google/gemini-cli"
)

// InstallStep is how the window's first-run page offers one agent: its
// install command, and what to do after.
type InstallStep struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Command string `json:"command"`
	Note    string `json:"note"`
}

// Onboarding is what the window's "No agent found" page offers, in order;
// the frontend gets it through the generated contract (backend/contract),
// never a copy.
var Onboarding = []InstallStep{
	{ID: "hermes", Name: "Hermes Agent", Command: hermesCommand, Note: "Python; then run hermes once to sign in."},
	{ID: "claude", Name: "Claude Code", Command: claudeCommand, Note: "Node 18+; then run claude once to sign in."},
	{ID: "codex", Name: "Codex", Command: codexCommand, Note: "Node 18+; then run codex login."},
	{ID: "gemini", Name: "Gemini CLI", Command: geminiCommand, Note: "Node 20+; then run gemini once to sign in."},
}

// Hermes is Hermes Agent's ACP server.
func Hermes() *acp.Adapter {
	return acp.New("hermes", "Hermes Agent", []string{"hermes", "acp"},
		acp.WithInstallHint(HermesInstall),
		acp.WithEnv("HERMES_HOME", "", ""),
		acp.WithSearchDirs(venvBins("hermes")...))
}

// Gemini is Gemini CLI in ACP mode.
func Gemini() *acp.Adapter {
	return acp.New("gemini", "Gemini CLI", []string{"gemini", "--acp"},
		acp.WithInstallHint(GeminiInstall),
		acp.WithEnv("", "GOOGLE_GEMINI_BASE_URL", "GEMINI_API_KEY"))
}

// Goose is goose's ACP server.
func Goose() *acp.Adapter {
	return acp.New("goose", "goose", []string{"goose", "acp"},
		acp.WithInstallHint(GooseInstall))
}

// ClaudeACP is Claude Code through Zed's ACP wrapper: claude-agent-acp,
// or claude-code-acp, its name before (0.16 and older).
func ClaudeACP() *acp.Adapter {
	return acp.New("claude-acp", "Claude Code (ACP)", []string{"claude-agent-acp"},
		acp.WithAlternatives([]string{"claude-code-acp"}),
		acp.WithInstallHint(ClaudeACPInstall),
		acp.WithEnv("CLAUDE_CONFIG_DIR", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"))
}

// CodexACP is Codex through Zed's ACP wrapper.
func CodexACP() *acp.Adapter {
	return acp.New("codex-acp", "Codex (ACP)", []string{"codex-acp"},
		acp.WithInstallHint(CodexACPInstall),
		acp.WithEnv("CODEX_HOME", "OPENAI_BASE_URL", "OPENAI_API_KEY"))
}

// Demo is the scripted demo agent built into this program (backend/demoagent):
// self is the path of the hermesdesk executable (os.Executable()).
func Demo(self string) *acp.Adapter {
	return acp.New("demo", "Demo agent (no AI)", []string{self, "demo-agent"},
		acp.WithClarify(), acp.WithModels())
}

// ACPAgents returns every ACP agent above.
func ACPAgents(self string) []adapter.Adapter {
	return []adapter.Adapter{Hermes(), Gemini(), Goose(), ClaudeACP(), CodexACP(), Demo(self)}
}
