package supervisor

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
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
