package service_test

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// The bus says when a parked run resumes, and forgets it once the run goes
// on (docs/ARCHITECTURE.md §Usage, parked runs): the tray and the
// notifications read it there.
func TestWatchCarriesResumesAt(t *testing.T) {
	s, m, ses := busWorld(t, service.Options{})
	_, res, ch := watchedRun(t, s, ses)
	next(t, ch) // the snapshot
	m.Append(res.RunID, run.EventStatus, run.StatusChanged{Status: run.StatusParked, ResumesAt: "2026-11-27T15:00:00Z", Attempt: 1})
	if st := nextRun(t, ch); st.Status != run.StatusParked || st.ResumesAt != "2026-11-27T15:00:00Z" {
		t.Fatalf("parked: %+v", st)
	}
	m.Append(res.RunID, run.EventRunStarted, run.RunStarted{Agent: "demo"})
	if st := nextRun(t, ch); st.Status != run.StatusRunning || st.ResumesAt != "" {
		t.Fatalf("resumed: %+v", st)
	}
}
