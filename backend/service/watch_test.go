package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

// busWorld is a service over the in-memory world, with one session.
func busWorld(t *testing.T, opts service.Options) (*service.Service, *servicetest.Mem, run.Session) {
	t.Helper()
	m := servicetest.NewMem()
	opts.Log = quiet
	s := service.New(m, m, m, opts)
	ctx := context.Background()
	p, err := s.CreateProject(ctx, service.CreateProjectRequest{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ses, err := s.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo", Title: "Fix the build"})
	if err != nil {
		t.Fatal(err)
	}
	return s, m, ses
}

// watchedRun starts a run in ses, then watches the bus until the test
// ends: the channel's first message is the snapshot, with the run.
func watchedRun(t *testing.T, s *service.Service, ses run.Session) (context.Context, run.StartResult, <-chan run.WatchMessage) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	res, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, res, ch
}

// watching watches the bus until the test ends, its snapshot read: the
// channel's next message is the first change.
func watching(t *testing.T, s *service.Service) (context.Context, <-chan run.WatchMessage) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m := next(t, ch); m.Type != run.WatchSnapshotType {
		t.Fatalf("first message %s, want the snapshot", m.Type)
	}
	return ctx, ch
}

func next(t *testing.T, ch <-chan run.WatchMessage) run.WatchMessage {
	t.Helper()
	select {
	case m, ok := <-ch:
		if !ok {
			t.Fatal("watch channel closed")
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no watch message")
	}
	panic("unreachable")
}

// nextRun skips session/agents messages up to the next run.changed.
func nextRun(t *testing.T, ch <-chan run.WatchMessage) run.RunState {
	t.Helper()
	for {
		m := next(t, ch)
		if m.Type == run.WatchRunChanged {
			return *m.Run
		}
	}
}

func TestWatchSnapshotThenChanges(t *testing.T) {
	s, m, ses := busWorld(t, service.Options{})
	ctx, res, ch := watchedRun(t, s, ses)
	snap := next(t, ch)
	if snap.Type != run.WatchSnapshotType || len(snap.Snapshot.Runs) != 1 {
		t.Fatalf("first message %+v, want a snapshot with one run", snap)
	}
	r0 := snap.Snapshot.Runs[0]
	if r0.RunID != res.RunID || r0.SessionTitle != "Fix the build" || r0.Status != run.StatusRunning || r0.LastSeq != 2 {
		t.Fatalf("snapshot run %+v", r0)
	}

	// Tokens move nothing a watcher shows: no message.
	m.Append(res.RunID, run.EventTokenDelta, run.TextDelta{Text: "x"})
	opts := []run.ApprovalOption{{ID: "yes", Label: "Allow", Kind: "allow_once"}, {ID: "no", Label: "Deny", Kind: "reject_once"}}
	m.Append(res.RunID, run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "ap1", Title: "Run make", Command: "make", Options: opts})
	msg := next(t, ch)
	if msg.Type != run.WatchRunChanged || msg.Seq != snap.Seq+1 {
		t.Fatalf("message %+v, want run.changed with seq %d", msg, snap.Seq+1)
	}
	st := *msg.Run
	if st.Status != run.StatusAwaitingApproval || st.Pending == nil || st.Pending.ID != "ap1" ||
		st.Pending.Kind != run.PendingApproval || len(st.Pending.Options) != 2 || st.Pending.Options[1].Label != "Deny" || st.LastSeq != 4 {
		t.Fatalf("pending approval state %+v (%+v)", st, st.Pending)
	}
	m.Append(res.RunID, run.EventApprovalResolved, run.ApprovalResolved{ApprovalID: "ap1", Choice: "yes"})
	if st := nextRun(t, ch); st.Pending != nil || st.Status != run.StatusRunning {
		t.Fatalf("after resolve %+v", st)
	}
	m.Append(res.RunID, run.EventClarifyRequest, run.ClarifyRequested{ClarifyID: "c1", Question: "Which branch?", Choices: []string{"main", "dev"}})
	if st := nextRun(t, ch); st.Status != run.StatusAwaitingClarify || st.Pending == nil || st.Pending.Title != "Which branch?" || len(st.Pending.Options) != 2 {
		t.Fatalf("clarify %+v", st)
	}
	m.Append(res.RunID, run.EventDone, run.Done{Status: run.StatusFailed, Error: "agent crashed"})
	end := nextRun(t, ch)
	if end.Status != run.StatusFailed || end.Error != "agent crashed" || end.EndedAt == nil || end.Pending != nil {
		t.Fatalf("terminal %+v", end)
	}
	if snap, _ := s.Snapshot(ctx); len(snap.Snapshot.Runs) != 0 {
		t.Fatalf("ended run still active: %+v", snap.Snapshot.Runs)
	}
}

// A run started elsewhere (not through this service: the tap sees its
// first event) and session mutations are announced.
func TestWatchLearnsRunsAndSessions(t *testing.T) {
	s, m, ses := busWorld(t, service.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	snap := next(t, ch)
	// Started on the Mem directly: only the tap tells the bus.
	res, err := m.Start(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi", ClientRequestID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	if st := nextRun(t, ch); st.RunID != res.RunID || st.Status != run.StatusRunning || st.ProjectID != ses.ProjectID {
		t.Fatalf("learned %+v", st)
	}
	title := "Renamed"
	if _, err := s.UpdateSession(ctx, ses.ID, run.SessionUpdate{Title: &title}); err != nil {
		t.Fatal(err)
	}
	var sc *run.SessionChange
	for sc == nil || sc.Kind != run.SessionUpdated {
		msg := next(t, ch)
		if msg.Type == run.WatchRunChanged && msg.Run.SessionTitle != title {
			t.Fatalf("renamed run state %+v", msg.Run)
		}
		sc = msg.Session
	}
	if sc.SessionID != ses.ID || sc.SessionsVersion <= snap.Snapshot.SessionsVersion || sc.SessionsVersion > 1<<53 {
		t.Fatalf("session change %+v (snapshot version %d)", sc, snap.Snapshot.SessionsVersion)
	}
}

// The snapshot is built under the lock that registers the watcher: a run
// changing while a watcher registers is seen exactly once — in the
// snapshot or as a message after it — with contiguous bus seqs.
func TestWatchRegisterRaceNoGapNoDuplicate(t *testing.T) {
	const rounds, approvals = 150, 20
	for i := range rounds {
		s, m, ses := busWorld(t, service.Options{WatchBuffer: 4 * approvals})
		ctx, cancel := context.WithCancel(context.Background())
		res, err := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi"})
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			// Half the rounds load the bus before the race, half during it.
			if _, err := s.Snapshot(ctx); err != nil {
				t.Fatal(err)
			}
		}
		go func() {
			for a := 1; a <= approvals; a++ {
				id := fmt.Sprintf("ap%d", a)
				m.Append(res.RunID, run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: id, Title: id,
					Options: []run.ApprovalOption{{ID: "y", Label: "Yes"}}})
				m.Append(res.RunID, run.EventApprovalResolved, run.ApprovalResolved{ApprovalID: id, Choice: "y"})
			}
			m.Append(res.RunID, run.EventDone, run.Done{Status: run.StatusCompleted})
		}()
		ch, err := s.Watch(ctx)
		if err != nil {
			t.Fatal(err)
		}
		snap := next(t, ch)
		var l0 int64
		if len(snap.Snapshot.Runs) == 1 {
			r := snap.Snapshot.Runs[0]
			l0 = r.LastSeq
			// Events after run.started and message.user alternate request
			// (odd seq) and resolve (even seq).
			if (l0 > 2 && l0%2 == 1) != (r.Pending != nil) {
				t.Fatalf("round %d: snapshot at seq %d with pending %+v", i, l0, r.Pending)
			}
		} else {
			// The run ended before the snapshot: nothing may follow for it.
			l0 = 2*approvals + 3
		}
		want, seq := l0+1, snap.Seq
		for want <= 2*approvals+3 {
			msg := next(t, ch)
			if msg.Seq != seq+1 {
				t.Fatalf("round %d: bus seq %d after %d (gap or duplicate)", i, msg.Seq, seq)
			}
			seq = msg.Seq
			if msg.Type != run.WatchRunChanged {
				continue // session activity at the end
			}
			if msg.Run.LastSeq != want {
				t.Fatalf("round %d: run.changed at run seq %d, want %d (snapshot at %d)", i, msg.Run.LastSeq, want, l0)
			}
			want++
		}
		cancel()
	}
}

// A watcher that stops reading gets a goodbye and its channel closes; a
// new watch starts from a fresh snapshot.
func TestWatchLaggingWatcherGoodbye(t *testing.T) {
	s, _, ses := busWorld(t, service.Options{WatchBuffer: 4})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		title := fmt.Sprint("t", i)
		if _, err := s.UpdateSession(ctx, ses.ID, run.SessionUpdate{Title: &title}); err != nil {
			t.Fatal(err)
		}
	}
	var got []run.WatchMessage
	for m := range ch {
		got = append(got, m)
	}
	if len(got) != 4 || got[0].Type != run.WatchSnapshotType || got[3].Type != run.WatchGoodbye || got[3].Reason != service.GoodbyeLagging {
		b, _ := json.Marshal(got)
		t.Fatalf("lagging watcher got %s", b)
	}
	ch, err = s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap := next(t, ch); snap.Type != run.WatchSnapshotType || snap.Seq < 10 {
		t.Fatalf("fresh snapshot %+v", snap)
	}
}

func TestWatchEndsWithContextAndShutdown(t *testing.T) {
	s, _, _ := busWorld(t, service.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	ch, _ := s.Watch(ctx)
	next(t, ch)
	cancel()
	for range ch {
	}
	ch, _ = s.Watch(context.Background())
	next(t, ch)
	s.CloseWatchers()
	if m := next(t, ch); m.Type != run.WatchGoodbye || m.Reason != service.GoodbyeShutdown {
		t.Fatalf("got %+v", m)
	}
	if _, ok := <-ch; ok {
		t.Fatal("channel open after goodbye")
	}
	if _, err := s.Watch(context.Background()); service.CodeOf(err) != service.CodeUnavailable {
		t.Fatalf("watch after shutdown: %v", err)
	}
}

// Agent health is checked once and then read from the cache: status
// changes, approvals and list reads spawn no `--version`; an explicit
// re-check, changed agent settings and a failed run do.
func TestAgentHealthCached(t *testing.T) {
	s, m, ses := busWorld(t, service.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, _ := s.Watch(ctx)
	next(t, ch)
	if _, err := s.Agents(ctx); err != nil {
		t.Fatal(err)
	}
	res, _ := s.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi"})
	for i := range 10 {
		st := run.StatusRunning
		if i%2 == 0 {
			st = run.StatusPaused
		}
		m.Append(res.RunID, run.EventStatus, run.StatusChanged{Status: st})
		if _, err := s.Agents(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := m.HealthChecks(); n != 1 {
		t.Fatalf("%d health checks across ten status changes, want 1 (at the first read)", n)
	}
	if _, err := s.RecheckAgents(ctx); err != nil || m.HealthChecks() != 2 {
		t.Fatalf("re-check: %v, %d checks", err, m.HealthChecks())
	}
	for msg := next(t, ch); msg.Type != run.WatchAgentsChanged; msg = next(t, ch) {
	}
	if _, err := s.PutSettings(ctx, map[string]json.RawMessage{"theme": json.RawMessage(`"dark"`)}); err != nil {
		t.Fatal(err)
	}
	s.Agents(ctx)
	if n := m.HealthChecks(); n != 2 {
		t.Fatalf("unrelated setting re-checked health (%d checks)", n)
	}
	if _, err := s.PutSettings(ctx, map[string]json.RawMessage{"agents.demo": json.RawMessage(`{"path":"/opt/demo"}`)}); err != nil {
		t.Fatal(err)
	}
	s.Agents(ctx)
	s.Agents(ctx)
	if n := m.HealthChecks(); n != 3 {
		t.Fatalf("agent settings changed: %d checks, want 3", n)
	}
	m.Append(res.RunID, run.EventDone, run.Done{Status: run.StatusFailed, Error: "could not start"})
	s.Agents(ctx)
	if n := m.HealthChecks(); n != 4 {
		t.Fatalf("after a failed run: %d checks, want 4", n)
	}
}
