// Package locate finds agent programs: a configured command, PATH, the
// usual per-user install dirs, and — only when $HERMESDESK_TOOLS names it
// (tests, scripts) — a tools dir as scripts/install-agents.sh fills it
// (.tools/npm/node_modules/.bin, .tools/venv/bin). Never anything relative
// to the current directory (docs/ARCHITECTURE.md §Security).
package locate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/paths"
)

// ErrNotFound: the program is nowhere we look.
var ErrNotFound = errors.New("locate: program not found")

// UsualDirs are the per-user and system install dirs a desktop app started
// from a menu often lacks on its PATH. Every adapter's lookup uses this one
// list, so an agent found by one is found by all.
func UsualDirs() []string {
	var dirs []string
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs,
			filepath.Join(home, ".local", "bin"),
			filepath.Join(home, ".npm-global", "bin"),
			filepath.Join(home, ".claude", "local"),
			filepath.Join(home, ".hermes", "hermes-agent", "venv", "bin"),
			filepath.Join(home, ".bun", "bin"),
			filepath.Join(home, ".cargo", "bin"),
			filepath.Join(home, "go", "bin"),
		)
	}
	dirs = append(dirs, "/usr/local/bin", "/opt/homebrew/bin", "/usr/bin")
	if p := os.Getenv("npm_config_prefix"); p != "" {
		dirs = append(dirs, filepath.Join(p, "bin"))
	}
	return dirs
}

// Find resolves a program: an explicit command (path or name) wins; else
// the project tools dir (pinned, tested versions), then PATH, then the usual
// install dirs.
func Find(command []string, name string) (string, error) {
	if len(command) > 0 && command[0] != "" {
		p, err := exec.LookPath(command[0])
		if err != nil {
			return "", fmt.Errorf("%s: %w", command[0], ErrNotFound)
		}
		return p, nil
	}
	// An explicitly named tools dir's pinned, tested versions come before
	// PATH; it exists only when tests or scripts name it.
	for _, d := range paths.ToolsBinDirs(paths.ToolsDir()) {
		if p := executable(filepath.Join(d, name)); p != "" {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, d := range UsualDirs() {
		if p := executable(filepath.Join(d, name)); p != "" {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", name, ErrNotFound)
}

func executable(p string) string {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return ""
	}
	return p
}

var versionRE = regexp.MustCompile(`\d+\.\d+(\.\d+)?([-.][0-9A-Za-z.]+)?`)

// Version runs path with args (e.g. --version) bounded by ctx and returns the
// first version-looking token of its output.
func Version(ctx context.Context, env []string, path string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = env
	cmd.Stdin = nil
	cmd.WaitDelay = 500_000_000 // 0.5 s: a grandchild holding stdout must not hang us
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", filepath.Base(path), strings.Join(args, " "), err)
	}
	v := versionRE.FindString(string(out))
	if v == "" {
		return "", fmt.Errorf("%s: no version in %q", filepath.Base(path), firstLine(string(out)))
	}
	return v, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Output runs path with args bounded by ctx and returns its combined output.
func Output(ctx context.Context, env []string, path string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = env
	cmd.WaitDelay = 500_000_000
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// NPMVersion reads the version of npm package pkg that provides the program
// at path (a bin link into node_modules) from its package.json, without
// starting Node — a CLI's --version can take seconds on a cold start, more
// than a health check may. "" when path is not from that package.
func NPMVersion(path, pkg string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(real)
	for range 4 {
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var meta struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			}
			if json.Unmarshal(b, &meta) == nil && meta.Name == pkg {
				return meta.Version
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}
