package journal

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func openTest(t testing.TB, opts Options) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "journal.db"), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fixture is a project, a session and a submitted run.
type fixture struct {
	s   *Store
	ses run.Session
	sub run.Submission
}

func newFixture(t testing.TB, s *Store) fixture {
	t.Helper()
	ctx := context.Background()
	p, err := s.CreateProject(ctx, "demo", "/tmp/demo")
	if err != nil {
		t.Fatal(err)
	}
	ses, err := s.CreateSession(ctx, run.Session{ProjectID: p.ID, Agent: "fake", Model: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{s: s, ses: ses}
	f.sub = f.submit(t, "hello", "")
	return f
}

func (f fixture) submit(t testing.TB, msg, crid string) run.Submission {
	t.Helper()
	sub, err := f.s.Submit(context.Background(), run.SubmitRequest{SessionID: f.ses.ID, Message: msg, ClientRequestID: crid})
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	return sub
}

func (f fixture) writer(t testing.TB, runID string) *Writer {
	t.Helper()
	w, err := f.s.OpenWriter(context.Background(), runID)
	if err != nil {
		t.Fatalf("OpenWriter: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	return w.(*Writer)
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// checkGapless asserts a run's events are seq 1..n without holes.
func checkGapless(t testing.TB, s *Store, runID string) []run.Event {
	t.Helper()
	var evs []run.Event
	err := s.StreamEvents(context.Background(), runID, 0, func(ev run.Event) error {
		if ev.Seq != int64(len(evs))+1 {
			t.Fatalf("run %s: seq %d at position %d", runID, ev.Seq, len(evs)+1)
		}
		evs = append(evs, ev)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func textOf(t testing.TB, ev run.Event) string {
	t.Helper()
	var d run.TextDelta
	if err := json.Unmarshal(ev.Payload, &d); err != nil {
		t.Fatal(err)
	}
	return d.Text
}
