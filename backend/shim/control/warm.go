package control

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// A warm shim is one whose run ended while its agent connection could serve
// another turn: it stays alive, agent and all, for its session's next run
// (docs/ARCHITECTURE.md §Warm agents), and publishes a Warm record so a supervisor can hand it
// that run (OpNextRun) instead of spawning a fresh shim.

// WarmDirName is the folder of warm records and session locks in the data dir.
const WarmDirName = "warm"

// DefaultWarmIdle is how long a warm shim waits for its session's next run
// before it closes the agent and exits (docs/ARCHITECTURE.md §API, timeouts).
const DefaultWarmIdle = 10 * time.Minute

// ErrNoWarm: no warm record for the session.
var ErrNoWarm = errors.New("control: no warm shim for the session")

// Warm is a warm shim's record, <datadir>/warm/<session_id>.json, written
// atomically (0600) when its run ends and removed when it takes a next run
// or exits. A record whose shim is gone is stale: a dial fails, and the
// next shim of the session removes it.
type Warm struct {
	ProtocolVersion int `json:"protocol_version"`
	// Binary is the base name of the shim's executable, the supervisor's
	// per-version copy (hermesdesk-<version>-<hash>): a shim of another
	// build is never handed a run.
	Binary      string    `json:"binary"`
	SessionID   string    `json:"session_id"`
	Agent       string    `json:"agent"`
	Fingerprint string    `json:"fingerprint"`
	Pid         int       `json:"pid"`
	AgentPid    int       `json:"agent_pid,omitempty"`
	Socket      string    `json:"socket"`
	Token       string    `json:"token"`
	LastRunID   string    `json:"last_run_id"`
	Since       time.Time `json:"since"`
	IdleUntil   time.Time `json:"idle_until"`
}

// Bootstrap is how a client reaches the warm shim (no run: OpNextRun, OpStop).
func (w Warm) Bootstrap() Bootstrap {
	return Bootstrap{ProtocolVersion: w.ProtocolVersion, Pid: w.Pid, Socket: w.Socket, Token: w.Token, AgentPid: w.AgentPid}
}

// WarmPath is the session's warm record.
func WarmPath(dataDir, sessionID string) string {
	return filepath.Join(dataDir, WarmDirName, sessionID+".json")
}

// SessionLockPath is the lock a shim holds while it has an agent for the
// session: a fresh shim takes it before starting its agent, so two agents
// never hold one native session.
func SessionLockPath(dataDir, sessionID string) string {
	return filepath.Join(dataDir, WarmDirName, sessionID+".lock")
}

// WriteWarm publishes w, creating the warm dir (0700).
func WriteWarm(dataDir string, w Warm) error {
	if err := os.MkdirAll(filepath.Join(dataDir, WarmDirName), 0o700); err != nil {
		return fmt.Errorf("warm dir: %w", err)
	}
	return WriteJSONAtomic(WarmPath(dataDir, w.SessionID), w)
}

// ReadWarm reads the session's warm record; ErrNoWarm if there is none.
func ReadWarm(dataDir, sessionID string) (Warm, error) {
	var w Warm
	err := readJSON(WarmPath(dataDir, sessionID), &w)
	if errors.Is(err, os.ErrNotExist) {
		return Warm{}, fmt.Errorf("session %s: %w", sessionID, ErrNoWarm)
	}
	if err != nil {
		return Warm{}, fmt.Errorf("read warm record: %w", err)
	}
	return w, nil
}

// RemoveWarm removes the session's record if pid wrote it (pid 0: whoever
// did, for the holder of the session lock clearing a dead shim's record).
func RemoveWarm(dataDir, sessionID string, pid int) {
	if pid != 0 {
		if w, err := ReadWarm(dataDir, sessionID); err != nil || w.Pid != pid {
			return
		}
	}
	os.Remove(WarmPath(dataDir, sessionID))
}

// Fingerprint identifies what an agent was started with: a warm agent
// serves a next run only if that run would start it the same way (same
// agent, resolved settings, workspace, model, profile). Changing an
// agent's settings thus retires its warm shims.
func Fingerprint(s Spec) string {
	data, _ := json.Marshal(struct {
		Agent, Workspace, Model, Profile, DataDir, DBPath string
		Config                                            any
	}{s.Agent, s.Workspace, s.Model, s.Profile, s.DataDir, s.DBPath, s.Config})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// WarmIdle is how long the shim stays warm after a run; zero means never.
func (s Spec) WarmIdle() time.Duration {
	switch {
	case s.WarmIdleMs < 0:
		return 0
	case s.WarmIdleMs == 0:
		return DefaultWarmIdle
	}
	return time.Duration(s.WarmIdleMs) * time.Millisecond
}
