package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/redact"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Writer is the single writer of one run's events: it assigns seqs,
// redacts, and enqueues into the Store's group-commit writer. Safe for
// concurrent use, though one goroutine per run is the normal shape.
type Writer struct {
	s  *Store
	rc runCtx

	mu     sync.Mutex
	seq    int64 // last assigned
	ended  bool  // a done was appended
	closed bool
	text   redact.Stream
	reason redact.Stream

	// gen changes when the writer resynchronizes after a failed commit; the
	// committer drops queued events of an older generation (their seqs are
	// void). failure is read lock-free by the committer.
	gen     atomic.Uint64
	failure atomic.Pointer[writerFailure]

	// turnCommitted is only touched by the commit goroutine.
	turnCommitted run.TurnState
}

type writerFailure struct {
	gen uint64
	err error
}

// runCtx is what the committer needs to derive state from a run's events.
type runCtx struct {
	runID, sessionID, turnID, assistantMessageID string
}

// OpenWriter makes this process the writer of a run. Seq resumes after the
// last committed event. ErrRunTerminal if the run has ended, ErrWriterBusy if
// another Writer of this Store has it open.
func (s *Store) OpenWriter(ctx context.Context, runID string) (run.Writer, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	rc, last, terminal, err := s.loadRunCtx(ctx, s.db, runID)
	if err != nil {
		return nil, err
	}
	if terminal {
		return nil, fmt.Errorf("journal: open writer for %s: %w", runID, ErrRunTerminal)
	}
	w := &Writer{s: s, rc: rc, seq: last}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, ok := s.writers[runID]; ok {
		return nil, fmt.Errorf("journal: open writer for %s: %w", runID, ErrWriterBusy)
	}
	s.writers[runID] = w
	return w, nil
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// loadRunCtx reads a run's identity, its last committed seq and whether it
// has its done (from the events, the source of truth).
func (s *Store) loadRunCtx(ctx context.Context, q queryer, runID string) (runCtx, int64, bool, error) {
	rc := runCtx{runID: runID}
	var last int64
	var done int
	err := q.QueryRowContext(ctx, `SELECT session_id, turn_id, assistant_message_id,
		COALESCE((SELECT MAX(seq) FROM events WHERE run_id = runs.id), 0),
		EXISTS (SELECT 1 FROM events WHERE run_id = runs.id AND type = 'done')
		FROM runs WHERE id = ?`, runID).Scan(&rc.sessionID, &rc.turnID, &rc.assistantMessageID, &last, &done)
	if errors.Is(err, sql.ErrNoRows) {
		return rc, 0, false, fmt.Errorf("journal: run %s: %w", runID, ErrNotFound)
	}
	if err != nil {
		return rc, 0, false, s.wrap("read run "+runID, err)
	}
	return rc, last, done == 1, nil
}

// RunID is the run this writer appends to.
func (w *Writer) RunID() string { return w.rc.runID }

// LastSeq is the last seq this writer assigned (not necessarily committed).
func (w *Writer) LastSeq() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seq
}

// Append validates, redacts and enqueues one event and returns its envelope
// without waiting for the commit. A token.delta or reasoning.delta whose
// whole text is held back by the secret redactor (it might be the start of
// a key) returns an envelope with Seq 0: its text is written with the
// run's next event. After a failed commit Append keeps returning that error
// until an AppendSync succeeds.
func (w *Writer) Append(t run.EventType, payload any) (run.Event, error) {
	return w.append(t, payload, nil)
}

// AppendSync appends and waits until the event is committed. Use it for
// done, approvals, clarify and status. After a failed commit it first
// resynchronizes with the database (events the failure voided are gone), so
// a run can still be ended after, say, a full disk.
func (w *Writer) AppendSync(ctx context.Context, t run.EventType, payload any) (run.Event, error) {
	ch := make(chan error, 1)
	ev, err := w.append(t, payload, ch)
	if err != nil {
		return ev, err
	}
	return ev, w.s.wait(ctx, ch)
}

// Flush waits until every event this writer enqueued is committed (text
// the redactor holds back is not enqueued yet; Close releases it).
func (w *Writer) Flush(ctx context.Context) error {
	ch := make(chan error, 1)
	w.mu.Lock()
	err := w.enqueue(&item{w: w, gen: w.gen.Load(), done: ch})
	w.mu.Unlock()
	if err != nil {
		return err
	}
	return w.s.wait(ctx, ch)
}

// Close releases held-back text, waits for the commit of everything
// appended and gives up the run (another writer may open it).
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	var err error
	if !w.ended && w.failedLocked() == nil {
		err = w.releaseHeld(nil)
	}
	w.closed = true
	w.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), w.s.opts.BusyTimeout+5*time.Second)
	defer cancel()
	ch := make(chan error, 1)
	w.mu.Lock()
	if err == nil {
		err = w.enqueue(&item{w: w, gen: w.gen.Load(), done: ch})
	}
	w.mu.Unlock()
	if err == nil {
		err = w.s.wait(ctx, ch)
	}
	w.s.wmu.Lock()
	if w.s.writers[w.rc.runID] == w {
		delete(w.s.writers, w.rc.runID)
	}
	w.s.wmu.Unlock()
	return err
}

func (w *Writer) failedLocked() error {
	if f := w.failure.Load(); f != nil && f.gen == w.gen.Load() {
		return f.err
	}
	return nil
}

func (w *Writer) append(t run.EventType, payload any, sync chan error) (run.Event, error) {
	var (
		raw   jsonRaw // non-delta payload
		text  string  // delta text
		extra map[string]jsonRaw
		err   error
	)
	if isDelta(t) {
		text, extra, err = deltaText(t, payload)
	} else {
		raw, err = encodePayload(t, payload)
		if err == nil {
			err = checkPayload(t, raw)
		}
		if err == nil {
			raw = redactPayload(raw)
		}
	}
	if err != nil {
		return run.Event{}, fmt.Errorf("journal: append to %s: %w", w.rc.runID, err)
	}
	if !t.Known() {
		w.s.unknownTypes.Add(1)
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return run.Event{}, fmt.Errorf("journal: append to %s: writer %w", w.rc.runID, ErrClosed)
	}
	if ferr := w.failedLocked(); ferr != nil {
		if sync == nil {
			return run.Event{}, fmt.Errorf("journal: append to %s: an earlier commit failed: %w", w.rc.runID, ferr)
		}
		if err := w.resyncLocked(); err != nil {
			return run.Event{}, err
		}
	}
	if w.ended {
		return run.Event{}, fmt.Errorf("journal: append %s to %s: %w", t, w.rc.runID, ErrRunTerminal)
	}

	if isDelta(t) {
		stream, other := &w.text, &w.reason
		if t == run.EventReasoningDelta {
			stream, other = &w.reason, &w.text
		}
		// Keep the two streams' order: release the other one's tail first.
		if err := w.releaseStream(other, otherDelta(t), nil); err != nil {
			return run.Event{}, err
		}
		out := stream.Write(text)
		if sync != nil {
			out += stream.Flush()
		}
		if out == "" {
			if sync != nil {
				sync <- nil
			}
			return run.Event{RunID: w.rc.runID, SessionID: w.rc.sessionID, Type: t}, nil
		}
		return w.enqueueEvent(t, deltaPayload(out, extra), sync)
	}
	if err := w.releaseHeld(nil); err != nil {
		return run.Event{}, err
	}
	if t == run.EventDone {
		w.ended = true
	}
	return w.enqueueEvent(t, raw, sync)
}

func otherDelta(t run.EventType) run.EventType {
	if t == run.EventReasoningDelta {
		return run.EventTokenDelta
	}
	return run.EventReasoningDelta
}

// releaseHeld writes out both redactor tails, reasoning first.
func (w *Writer) releaseHeld(sync chan error) error {
	if err := w.releaseStream(&w.reason, run.EventReasoningDelta, nil); err != nil {
		return err
	}
	return w.releaseStream(&w.text, run.EventTokenDelta, sync)
}

func (w *Writer) releaseStream(st *redact.Stream, t run.EventType, sync chan error) error {
	if st.Held() == 0 {
		return nil
	}
	if out := st.Flush(); out != "" {
		_, err := w.enqueueEvent(t, deltaPayload(out, nil), sync)
		return err
	}
	return nil
}

func (w *Writer) enqueueEvent(t run.EventType, payload jsonRaw, sync chan error) (run.Event, error) {
	ev := run.Event{
		Seq:       w.seq + 1,
		RunID:     w.rc.runID,
		SessionID: w.rc.sessionID,
		Type:      t,
		CreatedAt: run.UnixSeconds(time.Now()),
		Terminal:  t == run.EventDone,
		Payload:   payload,
	}
	ev.EventID = run.EventID(ev.RunID, ev.Seq)
	if err := w.enqueue(&item{w: w, gen: w.gen.Load(), ev: ev, done: sync}); err != nil {
		if t == run.EventDone {
			w.ended = false
		}
		return run.Event{}, err
	}
	w.seq = ev.Seq
	return ev, nil
}

// enqueue hands an item to the commit goroutine; it blocks while the
// queue is full (back-pressure on a flooding agent).
func (w *Writer) enqueue(it *item) error {
	select {
	case <-w.s.stop:
		return fmt.Errorf("journal: append to %s: store %w", w.rc.runID, ErrClosed)
	default:
	}
	select {
	case w.s.queue <- it:
		return nil
	case <-w.s.stop:
		return fmt.Errorf("journal: append to %s: store %w", w.rc.runID, ErrClosed)
	}
}

// resyncLocked restarts the writer from the database after a failed
// commit: seq continues after the last committed event and events queued
// under the old generation are dropped by the committer.
func (w *Writer) resyncLocked() error {
	ctx, cancel := context.WithTimeout(context.Background(), w.s.opts.BusyTimeout)
	defer cancel()
	_, last, terminal, err := w.s.loadRunCtx(ctx, w.s.db, w.rc.runID)
	if err != nil {
		return err
	}
	w.gen.Add(1)
	w.seq = last
	w.ended = terminal
	return nil
}

// wait blocks until a commit signal, the context, or the store's end.
func (s *Store) wait(ctx context.Context, ch chan error) error {
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		return fmt.Errorf("journal: waiting for commit: %w", ctx.Err())
	case <-s.stopped:
		select {
		case err := <-ch:
			return err
		default:
			return fmt.Errorf("journal: waiting for commit: store %w", ErrClosed)
		}
	}
}
