package agents

import (
	"os"
	"path/filepath"
)

// venvBins lists where a pip-installed program usually lands when it was
// installed into a per-user virtualenv named after it.
func venvBins(name string) []string {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{
		filepath.Join(home, "."+name, "venv", "bin"),
		filepath.Join(home, ".venvs", name, "bin"),
		filepath.Join(home, ".local", "share", name, "venv", "bin"),
	}
}
