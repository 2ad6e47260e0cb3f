package acp

import "github.com/hermesdesk/hermesdesk/backend/adapter"

// The ACP agents Hermes Desk knows. Claude Code and Codex also have native
// adapters ("claude", "codex"); their ACP wrappers are offered as
// "claude-acp" and "codex-acp".

// Hermes is Hermes Agent's ACP server.
func Hermes() *Adapter {
	return New("hermes", "Hermes Agent", []string{"hermes", "acp"},
		WithInstallHint(`install with: pip install "hermes-agent[acp]"`),
		WithEnv("HERMES_HOME", "", ""),
		WithSearchDirs(venvBins("hermes")...))
}

// Gemini is Gemini CLI in ACP mode.
func Gemini() *Adapter {
	return New("gemini", "Gemini CLI", []string{"gemini", "--acp"},
		WithInstallHint("install with: npm install -g @google/gemini-cli"),
		WithEnv("", "GOOGLE_GEMINI_BASE_URL", "GEMINI_API_KEY"))
}

// Goose is goose's ACP server.
func Goose() *Adapter {
	return New("goose", "goose", []string{"goose", "acp"},
		WithInstallHint("install goose from https://block.github.io/goose/docs/getting-started/installation"))
}

// ClaudeACP is Claude Code through Zed's ACP wrapper.
func ClaudeACP() *Adapter {
	return New("claude-acp", "Claude Code (ACP)", []string{"claude-code-acp"},
		WithInstallHint("install with: npm install -g @zed-industries/claude-code-acp"),
		WithEnv("CLAUDE_CONFIG_DIR", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"))
}

// CodexACP is Codex through Zed's ACP wrapper.
func CodexACP() *Adapter {
	return New("codex-acp", "Codex (ACP)", []string{"codex-acp"},
		WithInstallHint("install with: npm install -g @zed-industries/codex-acp"),
		WithEnv("CODEX_HOME", "OPENAI_BASE_URL", "OPENAI_API_KEY"))
}

// Demo is the scripted demo agent built into this program: self is the
// path of the hermesdesk executable (os.Executable()).
func Demo(self string) *Adapter {
	return New("demo", "Demo agent (no AI)", []string{self, "demo-agent"},
		WithVersionArgs("demo-agent", "--version"), WithClarify(), WithModels())
}

// All returns every ACP agent above.
func All(self string) []adapter.Adapter {
	return []adapter.Adapter{Hermes(), Gemini(), Goose(), ClaudeACP(), CodexACP(), Demo(self)}
}
