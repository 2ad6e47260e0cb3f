package journal_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The life of one run, as the service and a shim drive it.
func Example() {
	dir, _ := os.MkdirTemp("", "journal-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	s, err := journal.Open(filepath.Join(dir, "journal.db"), journal.Options{
		OnCommit: func(evs []run.Event) { /* push to live subscribers */ },
	})
	if err != nil {
		panic(err)
	}
	defer s.Close()

	// Service: project, session, and a submission committed before any
	// process is started.
	p, _ := s.CreateProject(ctx, "demo", dir)
	ses, _ := s.CreateSession(ctx, run.Session{ProjectID: p.ID, Agent: "hermes"})
	sub, _ := s.Submit(ctx, run.SubmitRequest{SessionID: ses.ID, Message: "hi", ClientRequestID: "c1"})

	// Shim: the run's single writer.
	w, _ := s.OpenWriter(ctx, sub.Run.ID)
	w.Append(run.EventRunStarted, run.RunStarted{Agent: "hermes"})
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "Hello"})
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "!"})
	w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted})
	w.Close()

	// Anyone: state and replay.
	r, _ := s.GetRun(ctx, sub.Run.ID)
	evs, _ := s.Events(ctx, r.ID, 0, 100)
	msgs, _ := s.Messages(ctx, ses.ID)
	fmt.Println(r.Status, r.LastSeq, len(evs), msgs[1].Content)
	// Output: completed 4 4 Hello!
}
