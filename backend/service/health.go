package service

import (
	"context"
	"sync"
	"sync/atomic"
)

// healthCache keeps the agents' health between explicit checks: listing
// agents runs each agent's `--version`, about a dozen processes, so it is
// done at start, on an explicit re-check (Settings' "Re-check"), after an
// agent's settings change and after a run of it failed — never per read
// (docs/ARCHITECTURE.md "The watch bus", agents.changed).
type healthCache struct {
	agents Agents

	// stale moves on every invalidation; never waits for a check in
	// flight (the bus invalidates with its lock held).
	stale atomic.Int64

	mu      sync.Mutex // held while checking: one check at a time
	list    []AgentInfo
	valid   bool
	checked int64 // stale's value when list was checked
}

func newHealthCache(a Agents) *healthCache { return &healthCache{agents: a} }

func (h *healthCache) get(ctx context.Context, refresh bool) ([]AgentInfo, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	gen := h.stale.Load()
	if h.valid && !refresh && h.checked == gen {
		return h.list, nil
	}
	l, err := h.agents.List(ctx)
	if err != nil {
		return nil, err
	}
	h.list, h.valid, h.checked = l, true, gen
	return l, nil
}

// invalidate makes the next read check again.
func (h *healthCache) invalidate() { h.stale.Add(1) }
