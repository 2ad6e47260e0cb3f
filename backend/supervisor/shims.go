package supervisor

import (
	"sort"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// ShimInfo describes a live shim this supervisor follows (deep health).
type ShimInfo struct {
	RunID           string    `json:"run_id"`
	Pid             int       `json:"pid"`
	AgentPid        int       `json:"agent_pid,omitempty"`
	StartedAt       time.Time `json:"started_at"`
	ProtocolVersion int       `json:"protocol_version"`
}

// Shims lists the shims this supervisor launched or adopted that have
// published their bootstrap, by run id.
func (s *Supervisor) Shims() []ShimInfo {
	s.mu.Lock()
	ids := make([]string, 0, len(s.tracked))
	for id := range s.tracked {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	sort.Strings(ids)
	out := make([]ShimInfo, 0, len(ids))
	for _, id := range ids {
		// The file, not the copy taken at connect time: the agent's pid is
		// added once the agent has spawned.
		b, err := control.ReadBootstrap(s.cfg.DataDir, id)
		if err != nil {
			continue
		}
		out = append(out, ShimInfo{RunID: id, Pid: b.Pid, AgentPid: b.AgentPid, StartedAt: b.StartTime, ProtocolVersion: b.ProtocolVersion})
	}
	return out
}
