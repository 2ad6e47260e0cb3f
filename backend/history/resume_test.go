package history

import "testing"

// Which agents go on in their own saved session from a new process
// (docs/ARCHITECTURE.md §History).
func TestResumesNatively(t *testing.T) {
	for agent, want := range map[string]bool{
		"claude": true, "codex": true, "qwen": true, "opencode": true, "hermes": true,
		"gemini":  false, // Gemini CLI 0.61.0: "No previous sessions found for this project"
		"unknown": true,
	} {
		if got := ResumesNatively(agent); got != want {
			t.Errorf("ResumesNatively(%q) = %v, want %v", agent, got, want)
		}
	}
}
