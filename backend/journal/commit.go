package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// item is one queued event, or (ev.Seq == 0) a fence that only asks to be
// told when everything queued before it is committed.
type item struct {
	w    *Writer
	gen  uint64
	ev   run.Event
	done chan error // buffered(1); nil for fire-and-forget appends
}

// retryDelays: how long a batch is retried on a transient failure (lock
// contention beyond the busy timeout, a full disk that may free up) before
// its writers are told it failed.
var retryDelays = []time.Duration{10 * time.Millisecond, 50 * time.Millisecond, 150 * time.Millisecond, 300 * time.Millisecond}

// commitLoop is the one goroutine that writes events: it drains the queue
// into batches of at most MaxBatch and commits each in one transaction.
// No linger: a batch is whatever has queued up while the previous commit
// ran, which keeps latency low when idle and batches large under load.
func (s *Store) commitLoop(conn *sql.Conn) {
	defer close(s.stopped)
	defer conn.Close()
	batch := make([]*item, 0, s.opts.MaxBatch)
	for {
		select {
		case it := <-s.queue:
			batch = append(batch, it)
		case <-s.stop:
			// Commit what was appended before Close.
			for {
				batch = s.drain(batch[:0])
				if len(batch) == 0 {
					return
				}
				s.commitBatch(conn, batch)
			}
		}
		batch = s.drain(batch)
		s.commitBatch(conn, batch)
		clear(batch)
		batch = batch[:0]
	}
}

func (s *Store) drain(batch []*item) []*item {
	for len(batch) < s.opts.MaxBatch {
		select {
		case it := <-s.queue:
			batch = append(batch, it)
		default:
			return batch
		}
	}
	return batch
}

// runGroup is one run's events within a batch, in seq order.
type runGroup struct {
	w     *Writer
	items []*item
	err   error
	turn  run.TurnState // turn state written by this batch
}

func (s *Store) commitBatch(conn *sql.Conn, batch []*item) {
	var groups []*runGroup
	byWriter := map[*Writer]*runGroup{}
	for _, it := range batch {
		g := byWriter[it.w]
		if g == nil {
			g = &runGroup{w: it.w}
			byWriter[it.w] = g
			groups = append(groups, g)
		}
		g.items = append(g.items, it)
	}
	// Events of a writer that failed (in this generation) or resynced
	// since they were queued are void: their seqs no longer follow.
	for _, g := range groups {
		for _, it := range g.items {
			if it.gen != g.w.gen.Load() {
				it.ev.Seq, it.ev.Type = 0, "" // void; answer the waiter below
				if it.done != nil {
					cause := ErrConflict
					if f := g.w.failure.Load(); f != nil {
						cause = f.err
					}
					it.done <- fmt.Errorf("journal: append to %s: voided by an earlier failed commit: %w", g.w.rc.runID, cause)
					it.done = nil
				}
			} else if f := g.w.failure.Load(); f != nil && f.gen == it.gen {
				g.err = f.err
			}
		}
	}

	var err error
	for attempt := 0; ; attempt++ {
		err = s.commitTx(conn, groups)
		if err == nil || !isTransient(err) || attempt >= len(retryDelays) {
			break
		}
		s.opts.Log.Warn("journal: commit failed, retrying", "err", err, "attempt", attempt+1)
		time.Sleep(retryDelays[attempt])
		for _, g := range groups {
			if g.err != nil && !isFailedBefore(g) {
				g.err = nil // a per-run error from the failed attempt: retry it too
			}
		}
	}
	if err != nil {
		err = s.wrap("commit events", err)
		s.opts.Log.Error("journal: commit failed", "err", err, "events", len(batch))
		for _, g := range groups {
			if g.err == nil {
				g.err = err
			}
		}
	}

	var committed []run.Event
	var bytes int64
	for _, g := range groups {
		if g.err != nil {
			if f := g.w.failure.Load(); f == nil || f.gen != g.gen() {
				g.w.failure.Store(&writerFailure{gen: g.gen(), err: g.err})
			}
			for _, it := range g.items {
				if it.done != nil {
					it.done <- g.err
				}
			}
			continue
		}
		for _, it := range g.items {
			if it.ev.Seq > 0 {
				committed = append(committed, it.ev)
				bytes += int64(len(it.ev.Payload)) + 64
			}
		}
	}
	if len(committed) > 0 {
		s.walBytes.Add(bytes)
		select {
		case s.walWritten <- struct{}{}:
		default:
		}
		if s.opts.OnCommit != nil {
			s.opts.OnCommit(committed)
		}
	}
	for _, g := range groups {
		if g.err == nil {
			if g.turn != "" {
				g.w.turnCommitted = g.turn
			}
			for _, it := range g.items {
				if it.done != nil {
					it.done <- nil
				}
			}
		}
	}
}

// gen is the writer generation of the group's newest item (older items,
// if any, were voided).
func (g *runGroup) gen() uint64 { return g.items[len(g.items)-1].gen }

// isFailedBefore: the group's writer had already failed before this batch.
func isFailedBefore(g *runGroup) bool {
	f := g.w.failure.Load()
	return f != nil && f.gen == g.gen()
}

// commitTx writes the batch in one BEGIN IMMEDIATE transaction. Each run's
// events go under a savepoint so that one run's invalid events (a seq
// conflict, an event after done) fail only that run.
func (s *Store) commitTx(conn *sql.Conn, groups []*runGroup) error {
	ctx := context.Background()
	live := 0
	for _, g := range groups {
		if g.err == nil && hasEvents(g) {
			live++
		}
	}
	if live == 0 {
		return nil
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, g := range groups {
		if g.err != nil || !hasEvents(g) {
			continue
		}
		if live == 1 {
			// One run in the batch (the common case): its failure is the
			// transaction's, no savepoint needed.
			if gerr := s.insertGroup(ctx, tx, ins, g); gerr != nil {
				if isTransient(gerr) {
					return gerr
				}
				g.err = s.wrap("append to "+g.w.rc.runID, classifyConstraint(gerr))
				return nil // rolled back by the deferred Rollback
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, "SAVEPOINT run_group"); err != nil {
			return err
		}
		gerr := s.insertGroup(ctx, tx, ins, g)
		if gerr != nil {
			if isTransient(gerr) {
				return gerr
			}
			if _, err := tx.ExecContext(ctx, "ROLLBACK TO run_group"); err != nil {
				return err
			}
			g.err = s.wrap("append to "+g.w.rc.runID, classifyConstraint(gerr))
		}
		if _, err := tx.ExecContext(ctx, "RELEASE run_group"); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func hasEvents(g *runGroup) bool {
	for _, it := range g.items {
		if it.ev.Seq > 0 {
			return true
		}
	}
	return false
}

func (s *Store) insertGroup(ctx context.Context, tx *sql.Tx, ins *sql.Stmt, g *runGroup) error {
	// The envelope invariants, checked once per run per batch under the
	// write lock: the batch continues exactly after the last committed
	// event and the run has no done yet. (Another process's writer for the
	// same run, or a stale one, fails here instead of leaving a gap.)
	var last int64
	var ended bool
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE((SELECT seq FROM events WHERE run_id = ? ORDER BY seq DESC LIMIT 1), 0),
		EXISTS (SELECT 1 FROM events WHERE run_id = ? AND type = 'done')`, g.w.rc.runID, g.w.rc.runID).Scan(&last, &ended); err != nil {
		return err
	}
	if ended {
		return fmt.Errorf("%w: it already has its done event", ErrRunTerminal)
	}
	d := deriver{s: s, tx: tx, rc: g.w.rc, turnDone: g.w.turnCommitted}
	for _, it := range g.items {
		ev := it.ev
		if ev.Seq == 0 {
			continue
		}
		if ev.Seq != last+1 {
			return fmt.Errorf("%w: seq %d does not follow the last committed seq %d (two writers for one run?)", ErrConflict, ev.Seq, last)
		}
		last = ev.Seq
		if _, err := ins.ExecContext(ctx, ev.RunID, ev.Seq, string(ev.Type), ev.CreatedAt, []byte(ev.Payload)); err != nil {
			return fmt.Errorf("insert %s seq %d: %w", ev.Type, ev.Seq, err)
		}
		if err := d.event(ctx, ev); err != nil {
			return fmt.Errorf("apply %s seq %d: %w", ev.Type, ev.Seq, err)
		}
	}
	if err := d.finish(ctx); err != nil {
		return err
	}
	g.turn = d.turnDone // recorded on the writer once the commit succeeds
	return nil
}

// classifyConstraint maps the schema's refusals to sentinels.
func classifyConstraint(err error) error {
	if errors.Is(err, ErrRunTerminal) || errors.Is(err, ErrConflict) {
		return err
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "UNIQUE") && strings.Contains(msg, "events.run_id") && !strings.Contains(msg, "events.seq"):
		return fmt.Errorf("%w: a second done: %w", ErrRunTerminal, err)
	case strings.Contains(msg, "UNIQUE") && strings.Contains(msg, "events.seq"):
		return fmt.Errorf("%w: seq already used (two writers for one run?): %w", ErrConflict, err)
	}
	return err
}
