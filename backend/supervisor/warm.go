package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// errWarmOtherBuild: the warm shim runs another build or protocol; it is
// not handed runs (the fresh shim asks it to exit).
var errWarmOtherBuild = errors.New("the warm shim is of another build")

// reuseWarm offers spec's run to the session's warm shim and returns the
// run's bootstrap if it took it. The shim is the judge of whether the run
// fits its agent (same settings, workspace, model): it refuses, and
// retires, if not. Any error means: start a fresh shim.
func (s *Supervisor) reuseWarm(spec control.Spec) (control.Bootstrap, error) {
	rec, err := control.ReadWarm(s.cfg.DataDir, spec.SessionID)
	if err != nil {
		return control.Bootstrap{}, err
	}
	if rec.ProtocolVersion != control.ProtocolVersion || rec.Binary != filepath.Base(s.exe) {
		return control.Bootstrap{}, fmt.Errorf("%w: %s", errWarmOtherBuild, rec.Binary)
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.ControlTimeout)
	defer cancel()
	resp, err := control.Call(ctx, rec.Bootstrap(), control.Request{Op: control.OpNextRun, Spec: &spec})
	if err != nil {
		return control.Bootstrap{}, err
	}
	b := resp.Bootstrap
	if b == nil || b.RunID != spec.RunID || b.Socket == "" {
		return control.Bootstrap{}, errors.New("the warm shim answered without the run's bootstrap")
	}
	s.log.Info("run handed to the session's warm shim", "run", spec.RunID, "pid", b.Pid, "agent_pid", b.AgentPid)
	return *b, nil
}

// RetireWarm asks every warm shim of agent (all agents for "") to close its
// agent and exit, and returns how many agreed. After a change of an
// agent's settings its warm shims could never serve a run again (their
// fingerprint no longer matches), so they need not wait out their idle
// timeout holding an agent. A shim serving a run refuses and stays.
func (s *Supervisor) RetireWarm(ctx context.Context, agent string) int {
	paths, _ := filepath.Glob(filepath.Join(s.cfg.DataDir, control.WarmDirName, "*.json"))
	n := 0
	for _, p := range paths {
		sessionID := strings.TrimSuffix(filepath.Base(p), ".json")
		rec, err := control.ReadWarm(s.cfg.DataDir, sessionID)
		if err != nil || agent != "" && rec.Agent != agent {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, s.cfg.ControlTimeout)
		_, err = control.Call(cctx, rec.Bootstrap(), control.Request{Op: control.OpStop})
		cancel()
		if err == nil {
			n++
		}
		s.log.Info("retire warm shim", "session", sessionID, "agent", rec.Agent, "pid", rec.Pid, "err", err)
	}
	return n
}

// DefaultMaxWarm is how many agents stay warm at once unless configured.
// Each warm agent is a live CLI (real ones weigh 100+ MB), so one finished
// run in each of many sessions must not leave as many agents behind.
const DefaultMaxWarm = 4

// SettingMaxWarm is the setting capping warm agents (a whole number; 0:
// none, every run starts its agent afresh).
const SettingMaxWarm = "max_warm_agents"

// maxWarm is the cap now: the setting if it is a valid number, else the
// configured default.
func (s *Supervisor) maxWarm(ctx context.Context) int {
	v, ok, err := s.cfg.Store.Setting(ctx, SettingMaxWarm)
	if err != nil || !ok || isNull(v) {
		return s.cfg.MaxWarm
	}
	var n int
	if err := json.Unmarshal(v, &n); err != nil || n < 0 {
		s.log.Warn("ignoring an invalid setting", "key", SettingMaxWarm, "value", string(v))
		return s.cfg.MaxWarm
	}
	return n
}

// SettingMaxConcurrent is the setting capping running runs across
// sessions (a whole number ≥ 1); it overrides Config.MaxConcurrent. Runs
// beyond it stay queued (docs/ARCHITECTURE.md §Scheduling).
const SettingMaxConcurrent = "max_concurrent_runs"

// isNull: a setting saved as null was cleared (the default applies).
func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// warmRecords lists the published warm records, most recently used first.
func (s *Supervisor) warmRecords() []control.Warm {
	paths, _ := filepath.Glob(filepath.Join(s.cfg.DataDir, control.WarmDirName, "*.json"))
	out := make([]control.Warm, 0, len(paths))
	for _, p := range paths {
		rec, err := control.ReadWarm(s.cfg.DataDir, strings.TrimSuffix(filepath.Base(p), ".json"))
		if err == nil && rec.Pid > 0 && processAlive(rec.Pid) {
			out = append(out, rec)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Since.After(out[j].Since) })
	return out
}

// capWarm retires the least recently used warm shims beyond the cap. It
// runs whenever a run ends (its shim may just have gone warm) and after
// recovery.
func (s *Supervisor) capWarm() {
	s.capWarmMu.Lock()
	defer s.capWarmMu.Unlock()
	ctx := context.WithoutCancel(s.ctx)
	limit := s.maxWarm(ctx)
	recs := s.warmRecords()
	for i := limit; i < len(recs); i++ {
		rec := recs[i]
		cctx, cancel := context.WithTimeout(ctx, s.cfg.ControlTimeout)
		_, err := control.Call(cctx, rec.Bootstrap(), control.Request{Op: control.OpStop})
		cancel()
		s.log.Info("retire warm shim beyond the cap", "session", rec.SessionID, "pid", rec.Pid,
			"warm_since", rec.Since, "cap", limit, "err", err)
	}
}

// WarmAgents lists the live warm shims, most recently used first, with the
// memory each holds (deep health; it is the service's WarmSource).
func (s *Supervisor) WarmAgents() []run.WarmAgent {
	recs := s.warmRecords()
	out := make([]run.WarmAgent, 0, len(recs))
	for _, r := range recs {
		out = append(out, run.WarmAgent{
			SessionID: r.SessionID, Agent: r.Agent, Pid: r.Pid, AgentPid: r.AgentPid,
			Since: r.Since, IdleUntil: r.IdleUntil, RSSBytes: memoryOf(r.Pid, r.AgentPid),
		})
	}
	return out
}

// SettingMaxOutput caps the output a run stores, in MB (a positive
// number; default control.DefaultMaxOutput): beyond it the shim keeps the
// head and the answer's tail and says what was cut.
const SettingMaxOutput = "max_run_output_mb"

// RetireWarmSession asks the session's warm shim, if any, to close its
// agent and exit (its project's folder is gone, or the session is being
// removed): it reports whether one agreed.
func (s *Supervisor) RetireWarmSession(ctx context.Context, sessionID string) bool {
	rec, err := control.ReadWarm(s.cfg.DataDir, sessionID)
	if err != nil {
		return false
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.ControlTimeout)
	_, err = control.Call(cctx, rec.Bootstrap(), control.Request{Op: control.OpStop})
	cancel()
	s.log.Info("retire warm shim", "session", sessionID, "agent", rec.Agent, "pid", rec.Pid, "err", err)
	return err == nil
}
