package shim

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/mock"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// memJournal is an in-memory run log behind the journal's function-field
// fake (backend/mock): seqs, one done, OnCommit.
type memJournal struct {
	mu       sync.Mutex
	events   []run.Event
	ended    bool
	onCommit func([]run.Event)
	// fail, when set, decides whether an append of t fails.
	fail func(t run.EventType, sync bool) error
	// checkpoints counts Checkpoint calls.
	checkpoints atomic.Int32
	// after, when set, sees every committed event (outside the lock, on
	// the appending goroutine), so a test can act at an exact point.
	after  func(ev run.Event)
	native string
}

var _ Journal = (*mock.Journal)(nil)

// journal is the shim's Journal over m.
func (m *memJournal) journal() *mock.Journal {
	return &mock.Journal{
		GetRunFunc: func(context.Context, string) (run.Run, error) {
			return run.Run{ID: "run_1", Status: run.StatusQueued}, nil
		},
		OpenWriterFunc: func(context.Context, string) (run.Writer, error) { return m.writer(), nil },
		UpdateSessionFunc: func(_ context.Context, id string, u run.SessionUpdate) (run.Session, error) {
			m.mu.Lock()
			defer m.mu.Unlock()
			if u.NativeSessionID != nil {
				m.native = *u.NativeSessionID
			}
			return run.Session{ID: id}, nil
		},
		CheckpointFunc: func(context.Context) error { m.checkpoints.Add(1); return nil },
		CloseFunc:      func() error { return nil },
	}
}

// writer is the run's Writer over m.
func (m *memJournal) writer() *mock.Writer {
	return &mock.Writer{
		AppendFunc: func(t run.EventType, p any) (run.Event, error) { return m.add(t, p, false) },
		AppendSyncFunc: func(_ context.Context, t run.EventType, p any) (run.Event, error) {
			return m.add(t, p, true)
		},
		FlushFunc: func(context.Context) error { return nil },
		CloseFunc: func() error { return nil },
	}
}

func (m *memJournal) add(t run.EventType, p any, sync bool) (run.Event, error) {
	m.mu.Lock()
	if m.ended {
		m.mu.Unlock()
		return run.Event{}, ErrRunTerminal
	}
	if m.fail != nil {
		if err := m.fail(t, sync); err != nil {
			m.mu.Unlock()
			return run.Event{}, err
		}
	}
	raw, _ := json.Marshal(p)
	seq := int64(len(m.events) + 1)
	ev := run.Event{EventID: run.EventID("run_1", seq), Seq: seq, RunID: "run_1", Type: t, Payload: raw, Terminal: t == run.EventDone}
	m.events = append(m.events, ev)
	m.ended = t == run.EventDone
	cb, after := m.onCommit, m.after
	m.mu.Unlock()
	if cb != nil {
		cb([]run.Event{ev})
	}
	if after != nil {
		after(ev)
	}
	return ev, nil
}

func (m *memJournal) all() []run.Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]run.Event(nil), m.events...)
}

func (m *memJournal) has(t run.EventType) bool {
	for _, ev := range m.all() {
		if ev.Type == t {
			return true
		}
	}
	return false
}

// fakeAdapter and fakeConn are made of function fields.
type fakeAdapter struct {
	caps   adapter.Capabilities
	start  func(ctx context.Context, req adapter.StartRequest, host adapter.Host) (adapter.Conn, error)
	health func(ctx context.Context, cfg adapter.Config) adapter.Health
}

var _ adapter.Adapter = (*fakeAdapter)(nil)

func (a *fakeAdapter) Name() string                       { return "fake" }
func (a *fakeAdapter) DisplayName() string                { return "Fake agent" }
func (a *fakeAdapter) Capabilities() adapter.Capabilities { return a.caps }
func (a *fakeAdapter) Health(ctx context.Context, cfg adapter.Config) adapter.Health {
	if a.health != nil {
		return a.health(ctx, cfg)
	}
	return adapter.Health{}
}
func (a *fakeAdapter) Start(ctx context.Context, req adapter.StartRequest, host adapter.Host) (adapter.Conn, error) {
	return a.start(ctx, req, host)
}

type fakeConn struct {
	turn            func(ctx context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult
	cancel          func(ctx context.Context) error
	respondApproval func(ctx context.Context, id, option string) error
	respondClarify  func(ctx context.Context, id, answer string) error
	setModel        func(ctx context.Context, model string) error
	nativeID        string
	done            chan struct{}
	closeOnce       sync.Once
}

var _ adapter.Conn = (*fakeConn)(nil)

func (c *fakeConn) NativeSessionID() string { return c.nativeID }
func (c *fakeConn) Pid() int                { return 0 }
func (c *fakeConn) Turn(ctx context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
	return c.turn(ctx, req, emit)
}
func (c *fakeConn) Cancel(ctx context.Context) error {
	if c.cancel == nil {
		return nil
	}
	return c.cancel(ctx)
}
func (c *fakeConn) RespondApproval(ctx context.Context, id, option string) error {
	if c.respondApproval == nil {
		return adapter.ErrNotPending
	}
	return c.respondApproval(ctx, id, option)
}
func (c *fakeConn) RespondClarify(ctx context.Context, id, answer string) error {
	if c.respondClarify == nil {
		return adapter.ErrNotPending
	}
	return c.respondClarify(ctx, id, answer)
}
func (c *fakeConn) SetModel(ctx context.Context, model string) error {
	if c.setModel == nil {
		return adapter.ErrUnsupported
	}
	return c.setModel(ctx, model)
}
func (c *fakeConn) Close() error {
	c.closeOnce.Do(func() {
		if c.done != nil {
			close(c.done)
		}
	})
	return nil
}
func (c *fakeConn) Done() <-chan struct{} { return c.done }

// harness runs one run on fakes.
type harness struct {
	t      *testing.T
	j      *memJournal
	r      *runner
	ended  chan struct{}
	cancel context.CancelFunc
}

func startHarness(t *testing.T, a *fakeAdapter, j *memJournal) *harness {
	t.Helper()
	return startHarnessWith(t, a, j, nil)
}

// startHarnessWith lets a test change the run's spec first.
func startHarnessWith(t *testing.T, a *fakeAdapter, j *memJournal, edit func(*control.Spec)) *harness {
	t.Helper()
	return startHarnessFull(t, a, j, edit, nil)
}

// startHarnessWithRunner lets a test set what the shim sets on a runner
// (a resumed run).
func startHarnessWithRunner(t *testing.T, a *fakeAdapter, editRunner func(*runner)) *harness {
	t.Helper()
	return startHarnessFull(t, a, nil, nil, editRunner)
}

func startHarnessFull(t *testing.T, a *fakeAdapter, j *memJournal, edit func(*control.Spec), editRunner func(*runner)) *harness {
	t.Helper()
	if j == nil {
		j = &memJournal{}
	}
	h := newHub(0)
	j.onCommit = h.publish
	dir := t.TempDir()
	spec := control.Spec{RunID: "run_1", SessionID: "ses_1", Agent: "fake", Message: "hi", DataDir: dir, DBPath: dir + "/db", CancelGraceMs: 20}
	if edit != nil {
		edit(&spec)
	}
	reg := adapter.NewRegistry(a)
	r := newRunner(spec, j.journal(), j.writer(), h, reg, slog.New(slog.DiscardHandler), io.Discard, nil)
	r.tm = timings{protocolCancel: 20 * time.Millisecond, abandon: 50 * time.Millisecond, doneRetries: 3, doneBackoff: time.Millisecond}
	if editRunner != nil {
		editRunner(r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	hs := &harness{t: t, j: j, r: r, ended: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(hs.ended)
		r.run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		hs.wait()
	})
	return hs
}

func (h *harness) wait() {
	h.t.Helper()
	select {
	case <-h.ended:
	case <-time.After(10 * time.Second):
		h.t.Fatal("run did not end")
	}
}

func (h *harness) control(req control.Request) run.ControlResult {
	h.t.Helper()
	resp := h.r.handle(context.Background(), req)
	if resp.Result == nil {
		h.t.Fatalf("%s: no result: %+v", req.Op, resp)
	}
	return *resp.Result
}

// done returns the one done payload, failing if there is not exactly one.
func (h *harness) done() run.Done {
	h.t.Helper()
	var d run.Done
	n := 0
	evs := h.j.all()
	for i, ev := range evs {
		if ev.Type == run.EventDone {
			n++
			json.Unmarshal(ev.Payload, &d)
			if i != len(evs)-1 {
				h.t.Fatalf("done is not the last event")
			}
		}
	}
	if n != 1 {
		h.t.Fatalf("%d done events", n)
	}
	return d
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

var errBoom = errors.New("boom")

// streamingConn is an agent that streams tokens until an emit is refused
// (the journal failing), then waits for the shim's cancel and ends
// cancelled.
func streamingConn() *fakeConn {
	stopped := make(chan struct{})
	return &fakeConn{
		turn: func(_ context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
			for {
				if err := emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "x"}); err != nil {
					<-stopped
					return adapter.TurnResult{Cancelled: true}
				}
			}
		},
		cancel: func(context.Context) error { close(stopped); return nil },
	}
}
