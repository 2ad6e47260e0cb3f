package journal

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestRunLifecycle(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	r := f.sub.Run
	if r.Status != run.StatusQueued || r.LastSeq != 0 || r.Terminal {
		t.Fatalf("new run = %+v", r)
	}
	w := f.writer(t, r.ID)
	if _, err := w.AppendSync(ctx, run.EventRunStarted, run.RunStarted{Agent: "fake"}); err != nil {
		t.Fatal(err)
	}
	for _, piece := range []string{"Hel", "lo, ", "world."} {
		if _, err := w.Append(run.EventTokenDelta, run.TextDelta{Text: piece}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRun(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != run.StatusRunning || got.StartedAt == nil || got.LastSeq < 3 {
		t.Fatalf("running run = %+v", got)
	}
	msgs, err := s.Messages(ctx, f.ses.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].Role != run.RoleUser || msgs[0].Content != "hello" || msgs[1].Content != "Hello, world." {
		t.Fatalf("live messages = %+v", msgs)
	}
	code := 0
	done, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted, ExitCode: &code})
	if err != nil {
		t.Fatal(err)
	}
	if !done.Terminal || done.EventID != run.EventID(r.ID, done.Seq) {
		t.Fatalf("done envelope = %+v", done)
	}
	if _, err := w.Append(run.EventTokenDelta, run.TextDelta{Text: "late"}); !errors.Is(err, run2err(ErrRunTerminal)) {
		t.Fatalf("append after done: %v", err)
	}
	if _, err := s.OpenWriter(ctx, r.ID); !errors.Is(err, ErrRunTerminal) {
		t.Fatalf("OpenWriter after done: %v", err)
	}
	got, _ = s.GetRun(ctx, r.ID)
	if got.Status != run.StatusCompleted || !got.Terminal || got.EndedAt == nil || got.ExitCode == nil || *got.ExitCode != 0 ||
		got.LastSeq != done.Seq || len(got.ActiveControls) != 0 {
		t.Fatalf("ended run = %+v", got)
	}
	turn, _ := s.GetTurn(ctx, r.TurnID)
	if turn.State != run.TurnCompleted || turn.Outcome != run.StatusCompleted {
		t.Fatalf("turn = %+v", turn)
	}
	evs := checkGapless(t, s, r.ID)
	if evs[len(evs)-1].Type != run.EventDone || !evs[len(evs)-1].Terminal || evs[0].SessionID != f.ses.ID {
		t.Fatalf("events = %+v", evs)
	}
	msgs, _ = s.Messages(ctx, f.ses.ID)
	if msgs[1].Content != "Hello, world." || msgs[1].RunStatus != run.StatusCompleted {
		t.Fatalf("final messages = %+v", msgs)
	}
}

func run2err(e error) error { return e }

func TestWriterResumesSeqAfterReopen(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	for i := 0; i < 5; i++ {
		if _, err := w.Append(run.EventProgress, run.Progress{Message: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.OpenWriter(ctx, f.sub.Run.ID); !errors.Is(err, ErrWriterBusy) {
		t.Fatalf("second writer: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w2 := f.writer(t, f.sub.Run.ID)
	ev, err := w2.AppendSync(ctx, run.EventProgress, run.Progress{Message: "y"})
	if err != nil || ev.Seq != 6 {
		t.Fatalf("resumed append = %+v, %v", ev, err)
	}
	if n, _ := s.LastSeq(ctx, f.sub.Run.ID); n != 6 {
		t.Fatalf("LastSeq = %d", n)
	}
}

func TestSubmitIdempotent(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	a := f.submit(t, "do it", "req-1")
	b := f.submit(t, "do it", "req-1")
	if a.Existing || !b.Existing || a.Run.ID != b.Run.ID || a.Turn.ID != b.Turn.ID || a.Turn.UserMessageID != b.Turn.UserMessageID {
		t.Fatalf("a=%+v b=%+v", a, b)
	}
	_, err := s.Submit(ctx, run.SubmitRequest{SessionID: f.ses.ID, Message: "something else", ClientRequestID: "req-1"})
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("different body: %v", err)
	}
	msgs, _ := s.Messages(ctx, f.ses.ID)
	users := 0
	for _, m := range msgs {
		if m.Role == run.RoleUser {
			users++
		}
	}
	if users != 2 { // fixture's "hello" + one "do it"
		t.Fatalf("user messages = %d: %+v", users, msgs)
	}
	if _, err := s.Submit(ctx, run.SubmitRequest{SessionID: "ses_missing", Message: "x"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing session: %v", err)
	}
	if _, err := s.Submit(ctx, run.SubmitRequest{SessionID: f.ses.ID, Message: "  "}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty message: %v", err)
	}
	if a.Turn.State != run.TurnSubmitted || a.Run.Agent != "fake" || a.Run.Model != "m1" {
		t.Fatalf("submission = %+v", a)
	}
}

func TestDerivedRunState(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	id := f.sub.Run.ID
	w := f.writer(t, id)
	step := func(typ run.EventType, p any, want func(run.Run) bool) {
		t.Helper()
		if _, err := w.AppendSync(ctx, typ, p); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		r, err := s.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !want(r) {
			t.Fatalf("after %s: %+v", typ, r)
		}
	}
	step(run.EventStatus, run.StatusChanged{Status: run.StatusRunning}, func(r run.Run) bool { return r.Status == run.StatusRunning })
	step(run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "ap1", Title: "rm -rf?"}, func(r run.Run) bool {
		return r.Status == run.StatusAwaitingApproval && r.PendingApprovalID == "ap1" && contains(r.ActiveControls, "approval")
	})
	step(run.EventApprovalResolved, run.ApprovalResolved{ApprovalID: "other", Choice: "allow"}, func(r run.Run) bool {
		return r.PendingApprovalID == "ap1" // another id does not clear it
	})
	step(run.EventApprovalResolved, run.ApprovalResolved{ApprovalID: "ap1", Choice: "allow"}, func(r run.Run) bool {
		return r.Status == run.StatusRunning && r.PendingApprovalID == ""
	})
	step(run.EventClarifyRequest, run.ClarifyRequested{ClarifyID: "c1", Question: "which?"}, func(r run.Run) bool {
		return r.Status == run.StatusAwaitingClarify && r.PendingClarifyID == "c1"
	})
	step(run.EventClarifyResolved, run.ClarifyResolved{ClarifyID: "c1", Answer: "that"}, func(r run.Run) bool {
		return r.Status == run.StatusRunning && r.PendingClarifyID == ""
	})
	step(run.EventTitleUpdated, run.TitleUpdated{Title: "Agent title"}, func(run.Run) bool {
		ses, _ := s.GetSession(ctx, f.ses.ID)
		return ses.Title == "Agent title"
	})
	step(run.EventToolStarted, run.ToolStarted{ToolCallID: "t1", Name: "bash"}, func(run.Run) bool {
		tr, _ := s.GetTurn(ctx, f.sub.Turn.ID)
		return tr.State == run.TurnAssistantStarted
	})
	// A backward transition is a no-op.
	if err := s.SetTurnState(ctx, f.sub.Turn.ID, run.TurnWorkerStarted, ""); err != nil {
		t.Fatal(err)
	}
	if tr, _ := s.GetTurn(ctx, f.sub.Turn.ID); tr.State != run.TurnAssistantStarted {
		t.Fatalf("turn went back to %s", tr.State)
	}
	step(run.EventDone, run.Done{Status: run.StatusFailed, Error: "boom"}, func(r run.Run) bool {
		return r.Status == run.StatusFailed && r.Terminal && r.Error == "boom"
	})
	if err := s.SetRunStatus(ctx, id, run.StatusRunning); !errors.Is(err, ErrRunTerminal) {
		t.Fatalf("SetRunStatus after done: %v", err)
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func TestAppendValidation(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	w := f.writer(t, f.sub.Run.ID)
	cases := []struct {
		name    string
		typ     run.EventType
		payload any
		wantErr error
	}{
		{"truncated json", run.EventProgress, json.RawMessage(`{"message":"x`), ErrInvalidEvent},
		{"garbage", run.EventProgress, []byte("\x00\xffgarbage"), ErrInvalidEvent},
		{"not an object", run.EventProgress, json.RawMessage(`[1,2]`), ErrInvalidEvent},
		{"unmarshalable", run.EventProgress, map[string]any{"f": func() {}}, ErrInvalidEvent},
		{"empty type", "", nil, ErrInvalidEvent},
		{"bad type", "Bad Type!", nil, ErrInvalidEvent},
		{"done without terminal status", run.EventDone, run.Done{Status: run.StatusRunning}, ErrInvalidEvent},
		{"terminal status event", run.EventStatus, run.StatusChanged{Status: run.StatusCompleted}, ErrInvalidEvent},
		{"approval without id", run.EventApprovalRequest, run.ApprovalRequested{Title: "x"}, ErrInvalidEvent},
		{"bad delta text", run.EventTokenDelta, json.RawMessage(`{"text":42}`), ErrInvalidEvent},
		{"unknown type accepted", "vendor.custom", map[string]int{"n": 1}, nil},
		{"nil payload", run.EventProgress, nil, nil},
		{"raw passes", run.EventProgress, json.RawMessage(`{"message":"ok"}`), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := w.Append(c.typ, c.payload)
			if !errors.Is(err, c.wantErr) && !(c.wantErr == nil && err == nil) {
				t.Fatalf("err = %v, want %v", err, c.wantErr)
			}
		})
	}
	if err := w.Flush(ctxT(t)); err != nil {
		t.Fatalf("valid events after invalid ones: %v", err)
	}
	evs := checkGapless(t, s, f.sub.Run.ID)
	if len(evs) != 3 {
		t.Fatalf("committed %d events, want 3", len(evs))
	}
	if s.Stats().UnknownEventTypes != 1 {
		t.Fatalf("unknown types = %d", s.Stats().UnknownEventTypes)
	}
}

func TestEventsPaging(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	for i := 0; i < 25; i++ {
		if _, err := w.Append(run.EventProgress, run.Progress{Message: "p"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	id := f.sub.Run.ID
	page, err := s.Events(ctx, id, 20, 10)
	if err != nil || len(page) != 5 || page[0].Seq != 21 {
		t.Fatalf("after 20: %d events, %v", len(page), err)
	}
	if _, err := s.Events(ctx, "run_missing", 0, 10); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing run: %v", err)
	}
	var n int
	stop := errors.New("stop")
	if err := s.StreamEvents(ctx, id, 0, func(run.Event) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	}); !errors.Is(err, stop) || n != 3 {
		t.Fatalf("stream stop: %v after %d", err, n)
	}
}

func TestOnCommit(t *testing.T) {
	var committed []run.Event
	var mu = make(chan struct{}, 1)
	mu <- struct{}{}
	s := openTest(t, Options{OnCommit: func(evs []run.Event) {
		<-mu
		committed = append(committed, evs...)
		mu <- struct{}{}
	}})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	if _, err := w.AppendSync(ctx, run.EventProgress, run.Progress{Message: "a"}); err != nil {
		t.Fatal(err)
	}
	<-mu
	if len(committed) != 1 || committed[0].Seq != 1 {
		t.Fatalf("OnCommit got %+v", committed)
	}
	mu <- struct{}{}
}
