package paths

import (
	"os"
	"path/filepath"
)

// EnvTools names a dir of pinned agent CLIs (the layout
// scripts/install-agents.sh fills) that agent lookup tries first.
const EnvTools = "HERMESDESK_TOOLS"

// ToolsDir is $HERMESDESK_TOOLS when it is an absolute path, else "".
//
// Nothing is ever looked up relative to the current directory or a
// development checkout: a folder someone else controls (a cloned
// repository, a download) must not be able to plant a program the app runs
// at launch — health checks run every agent with --version. Tests and
// scripts that use the CLIs installed into a checkout's .tools dir pass
// that path explicitly (see docs/ARCHITECTURE.md §Security, agent lookup).
func ToolsDir() string {
	d := os.Getenv(EnvTools)
	if d == "" || !filepath.IsAbs(d) {
		return ""
	}
	return filepath.Clean(d)
}

// ToolsBinDirs are the dirs inside tools dir that hold programs: npm
// packages' bin links, then the Python venv's scripts.
func ToolsBinDirs(tools string) []string {
	if tools == "" {
		return nil
	}
	return []string{filepath.Join(tools, "npm", "node_modules", ".bin"), filepath.Join(tools, "venv", "bin")}
}
