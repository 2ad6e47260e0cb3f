package paths

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// EnvTools names the project-local agent tools dir explicitly.
const EnvTools = "HERMESDESK_TOOLS"

// modulePath identifies a development checkout of this project.
const modulePath = "github.com/hermesdesk/hermesdesk"

// ToolsDir is the project-local dir that scripts/install-agents.sh fills
// with pinned agent CLIs: $HERMESDESK_TOOLS, else — only in a development
// checkout, i.e. when the working directory is at or below this module's
// root — the .tools dir beside its go.mod; else "". An installed app never
// walks up to a .tools dir of whatever folder it was started from: programs
// there are not ours to run, so people get PATH and the usual install dirs.
func ToolsDir() string {
	if d := os.Getenv(EnvTools); d != "" {
		return d
	}
	dir, err := os.Getwd()
	for err == nil {
		if isModuleRoot(dir) {
			t := filepath.Join(dir, ".tools")
			if st, serr := os.Stat(t); serr == nil && st.IsDir() {
				return t
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

// ToolsBinDirs are the dirs inside tools dir that hold programs: npm
// packages' bin links, then the Python venv's scripts.
func ToolsBinDirs(tools string) []string {
	if tools == "" {
		return nil
	}
	return []string{filepath.Join(tools, "npm", "node_modules", ".bin"), filepath.Join(tools, "venv", "bin")}
}

// isModuleRoot reports whether dir holds this project's go.mod.
func isModuleRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.TrimSpace(mod) == modulePath
		}
	}
	return false
}
