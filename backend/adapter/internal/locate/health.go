package locate

import (
	"context"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// Probe says how to check one agent CLI: which program to find and how to
// read its version.
type Probe struct {
	Program     string // name looked up by Find when no command is configured
	NPMPackage  string // when set, the version comes from its package.json if path is from it
	DisplayName string // the agent as people know it, for messages
	InstallHint string // the message when the program is missing
}

// Health finds the program (command, when configured, wins) and reads its
// version: from the npm package when there is one, since that needs no
// Node cold start, else by running it with --version under env, bounded by
// ctx.
func (p Probe) Health(ctx context.Context, command, env []string) adapter.Health {
	path, err := Find(command, p.Program)
	if err != nil {
		return adapter.Health{Message: p.InstallHint}
	}
	h := adapter.Health{Installed: true, Path: path}
	if p.NPMPackage != "" {
		if v := NPMVersion(path, p.NPMPackage); v != "" {
			h.Version, h.OK = v, true
			return h
		}
	}
	v, err := Version(ctx, env, path, "--version")
	if err != nil {
		h.Message = p.DisplayName + " is installed but did not start: " + err.Error()
		return h
	}
	h.Version, h.OK = v, true
	return h
}

// NotFound is the message when an agent's program is missing: its name,
// then the install hint when there is one.
func NotFound(display, hint string) string {
	if hint == "" {
		return display + " not found"
	}
	return display + " not found — " + hint
}
