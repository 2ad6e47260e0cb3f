package service

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/version"
)

// Agents, search, settings, audit and health.

// Agents lists installed agents with versions and health, as last checked
// (see healthCache): reading it spawns nothing.
func (s *Service) Agents(ctx context.Context) ([]AgentInfo, error) {
	as, err := s.health.get(ctx, false)
	return nonNil(as), s.classify(ctx, "list agents", "agent", err)
}

// RecheckAgents checks every agent's health now (Settings' "Re-check") and
// tells watchers (agents.changed).
func (s *Service) RecheckAgents(ctx context.Context) ([]AgentInfo, error) {
	as, err := s.health.get(ctx, true)
	if err == nil {
		s.agentsChanged()
	}
	return nonNil(as), s.classify(ctx, "list agents", "agent", err)
}

// agentsStale drops the cached health (an agent's settings changed, or a
// run of it failed) and tells watchers, who re-read the list: the check
// runs once, on the first read.
func (s *Service) agentsStale() {
	s.health.invalidate()
	s.agentsChanged()
}

// MaxQueryBytes bounds a search query.
const MaxQueryBytes = 1024

// Search finds text across messages and tool output.
func (s *Service) Search(ctx context.Context, q string, limit int) ([]run.SearchHit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return []run.SearchHit{}, nil
	}
	if len(q) > MaxQueryBytes || !utf8.ValidString(q) {
		return nil, badRequest("query must be valid text of at most %d bytes", MaxQueryBytes)
	}
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	hs, err := s.store.Search(ctx, q, limit)
	return nonNil(hs), s.classify(ctx, "search", "search", err)
}

// Settings returns every setting.
func (s *Service) Settings(ctx context.Context) (map[string]json.RawMessage, error) {
	m, err := s.store.GetSettings(ctx)
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	return maskSecrets(m), s.classify(ctx, "read settings", "settings", err)
}

// PutSettings stores the given settings (others stay) and returns them all.
// Secret fields (api_key) read back masked; sending the mask back keeps the
// stored secret.
func (s *Service) PutSettings(ctx context.Context, in map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	for k, v := range in {
		if k == "" || len(k) > MaxNameBytes {
			return nil, badRequest("setting names must be non-empty and short")
		}
		if err := checkAgentSettings(k, v); err != nil {
			return nil, err
		}
		if err := s.checkDefinitionSetting(k, v); err != nil {
			return nil, err
		}
		if err := checkLimitSetting(k, v); err != nil {
			return nil, err
		}
		if err := checkWorkspaceSetting(k, v); err != nil {
			return nil, err
		}
	}
	stored, err := s.store.GetSettings(ctx)
	if err != nil {
		return nil, s.classify(ctx, "read settings", "settings", err)
	}
	in, err = keepMaskedSecrets(in, stored)
	if err != nil {
		return nil, s.classify(ctx, "write settings", "settings", err)
	}
	if err := s.store.PutSettings(ctx, in); err != nil {
		return nil, s.classify(ctx, "write settings", "settings", err)
	}
	if s.retireWarm(ctx, in, stored) {
		s.agentsStale()
	}
	return s.Settings(ctx)
}

// retireWarm closes the warm agents of every agent whose settings ("agents.<name>")
// changed: they were started with the old ones and would never serve a run
// again. Saving a form unchanged keeps them. It reports whether any
// agent's settings changed (its health must be checked again).
func (s *Service) retireWarm(ctx context.Context, in, before map[string]json.RawMessage) (changed bool) {
	for k, v := range in {
		if sameJSON(v, before[k]) {
			continue
		}
		if rest, ok := strings.CutPrefix(k, "agents."); ok {
			if name, _, _ := strings.Cut(rest, "."); name != "" {
				changed = true
				s.runner.RetireWarm(ctx, name)
			}
		}
	}
	return changed
}

// sameJSON: a and b are the same JSON value up to insignificant whitespace.
func sameJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// Audit lists pending, interrupted and malformed items from recovery.
func (s *Service) Audit(ctx context.Context) (any, error) {
	a, err := s.store.Audit(ctx)
	return a, s.classify(ctx, "audit", "audit", err)
}

// ping asks the guard (what a read cannot see), then touches the database.
func (s *Service) ping(ctx context.Context) error {
	if s.guard != nil {
		if err := s.guard.Check(); err != nil {
			return err
		}
	}
	return s.store.Ping(ctx)
}

// Health is GET /api/health?deep=1.
type Health struct {
	OK       bool       `json:"ok"`
	Version  string     `json:"version"`
	UptimeS  int64      `json:"uptime_s"`
	Database string     `json:"database"` // "ok" or a safe reason
	Shims    []ShimInfo `json:"shims"`
	// Warm lists the agents kept warm for a next message; WarmRSSBytes is
	// the memory they hold together.
	Warm         []WarmAgent `json:"warm_agents"`
	WarmRSSBytes int64       `json:"warm_rss_bytes"`
	Error        string      `json:"error,omitempty"`
}

// Health touches the database and lists the active runs, each served by a
// shim the supervisor follows.
func (s *Service) Health(ctx context.Context) Health {
	h := Health{OK: true, Version: version.Version, UptimeS: int64(time.Since(s.started).Seconds()),
		Database: "ok", Shims: []ShimInfo{}, Warm: []WarmAgent{}}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := s.ping(ctx); err != nil {
		h.OK = false
		h.Database = MessageOf(s.classify(ctx, "ping database", "database", err))
	}
	active, err := s.store.ListRuns(ctx, run.RunFilter{Active: true, Limit: MaxPage})
	if err != nil {
		h.OK = false
		h.Error = "cannot list active runs: " + MessageOf(s.classify(ctx, "list active runs", "run", err))
	}
	for _, r := range active {
		h.Shims = append(h.Shims, ShimInfo{RunID: r.ID, SessionID: r.SessionID, Agent: r.Agent, Status: r.Status, LastSeq: r.LastSeq})
	}
	if s.warm != nil {
		h.Warm = append(h.Warm, s.warm.WarmAgents()...)
		for _, w := range h.Warm {
			h.WarmRSSBytes += w.RSSBytes
		}
	}
	return h
}
