package notify

import (
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
)

// QuotaKey is the key of a run's parked/resumed notification: the resumed
// one replaces the parked one in place.
func QuotaKey(runID string) string { return "quota:" + runID }

// QuotaNote tells that a run parked on its vendor's rate limit (and when
// it resumes) or resumed at the reset (docs/ARCHITECTURE.md §Usage, parked
// runs).
func QuotaNote(r run.RunState, c QuotaChange) Note {
	n := Note{Key: QuotaKey(r.RunID), Kind: KindQuota, RunID: r.RunID, SessionID: r.SessionID}
	if c == QuotaResumed {
		n.Summary = "Resumed — " + sessionTitle(r)
		n.Body = agentName(r) + "'s quota is back; the run goes on"
		return n
	}
	n.Summary = "Waiting for quota — " + sessionTitle(r)
	n.Body = agentName(r) + " hit its rate limit"
	if at, err := time.Parse(time.RFC3339, r.ResumesAt); err == nil {
		n.Body += "; " + traystate.ResumesAt(at)
	}
	return n
}
