package supervisor_test

import (
	"context"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// racingStore runs during right after the victim's submission commits
// and before Submit returns: the moment the victim's turn and queued run
// exist but its spec is not written yet.
func racingStore(s supervisor.Store, victim string, during func()) supervisor.Store {
	m := fakeStore(s)
	m.SubmitFunc = func(ctx context.Context, req run.SubmitRequest) (run.Submission, error) {
		sub, err := s.Submit(ctx, req)
		if err == nil && req.ClientRequestID == victim {
			during()
		}
		return sub, err
	}
	return m
}

// A run another Start is still preparing is not taken for one whose start
// request was lost (which ends it interrupted before it ever ran).
func TestStartRacingScheduleIsNotLost(t *testing.T) {
	var e *env
	var other run.Session
	var otherRun string
	e = newEnv(t, func(c *supervisor.Config) {
		c.MaxConcurrent = 1
		c.Store = racingStore(c.Store, "victim", func() {
			// Any schedule pass will do; a concurrent Start is the
			// everyday one (another session's message, a run ending).
			otherRun = e.start(other.ID, "/scenario slow").RunID
		})
	})
	other = e.newSession()
	ctx := context.Background()
	res, err := e.sup.Start(ctx, run.StartRequest{SessionID: e.session.ID, Message: "mine", ClientRequestID: "victim"})
	if err != nil {
		t.Fatal(err)
	}
	r := e.getRun(res.RunID)
	e.sup.Cancel(ctx, otherRun)
	e.sup.Cancel(ctx, res.RunID)
	if r.Terminal {
		t.Fatalf("the run ended %s before it could start: %q", r.Status, r.Error)
	}
}
