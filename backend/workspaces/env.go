package workspaces

import (
	"fmt"
	"net"
	"strconv"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// PortBlock is how many ports each workspace owns, from its Port.
const PortBlock = 10

// The range workspace port blocks are taken from: above the usual
// development servers' defaults (3000, 5173, 8080). It overlaps the
// ephemeral range some systems hand out, so each block is probed before
// it is given.
const (
	portLow  = 41000
	portHigh = 60000
)

// pickPorts returns the first block start in [low, high) not used by
// another workspace whose ten ports are all free, 0 when none is.
func pickPorts(used []int, low, high int, free func(port int) bool) int {
	taken := map[int]bool{}
	for _, p := range used {
		taken[p] = true
	}
next:
	for start := low; start+PortBlock <= high; start += PortBlock {
		if taken[start] {
			continue
		}
		for p := start; p < start+PortBlock; p++ {
			if !free(p) {
				continue next
			}
		}
		return start
	}
	return 0
}

// portFree reports whether nothing listens on port on the loopback.
func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// Env is what every process of a worktree workspace gets — its setup
// script, the agent and the agent's shells (docs/ARCHITECTURE.md
// §Workspaces, "Setup"). A checkout gets nothing.
func Env(w run.Workspace) []string {
	if w.Kind != KindWorktree {
		return nil
	}
	name, err := Slug(w.ID)
	if err != nil {
		name = w.ID
	}
	env := []string{
		"HERMESDESK_WORKSPACE_PATH=" + w.Path,
		"HERMESDESK_WORKSPACE_NAME=" + name,
		"HERMESDESK_BASE_BRANCH=" + w.Base,
	}
	if w.Port > 0 {
		env = append(env, fmt.Sprintf("HERMESDESK_PORT=%d", w.Port))
	}
	return env
}
