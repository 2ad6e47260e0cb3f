package journal

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The few operations below exist so that the Store satisfies its
// consumers' small interfaces directly (the supervisor's Store, the
// service's Store): docs/ARCHITECTURE.md §Journal.

// activeLimit bounds one listing of active runs; far above any real count.
const activeLimit = 100000

// ActiveRuns lists the runs without their done, oldest first.
func (s *Store) ActiveRuns(ctx context.Context) ([]run.Run, error) {
	rs, err := s.ListRuns(ctx, run.RunFilter{Active: true, Limit: activeLimit})
	if err != nil {
		return nil, err
	}
	slices.Reverse(rs) // ListRuns lists newest first
	return rs, nil
}

// EndRun ends a run that has no shim (never started, or failed to start)
// with an error (when reason is set) and done{st}, written as this process,
// which must hold the run's lock.
func (s *Store) EndRun(ctx context.Context, runID string, st run.Status, reason, detail string) (run.Event, error) {
	w, err := s.OpenWriter(ctx, runID)
	if err != nil {
		return run.Event{}, err
	}
	defer w.Close()
	if reason != "" {
		if _, err := w.AppendSync(ctx, run.EventError, run.ErrorInfo{Message: reason, Code: run.ErrorStart, Detail: detail}); err != nil {
			return run.Event{}, err
		}
	}
	return w.AppendSync(ctx, run.EventDone, run.Done{Status: st, Error: reason})
}

// Setting returns one setting's raw JSON value; ok is false when unset.
func (s *Store) Setting(ctx context.Context, key string) (value []byte, ok bool, err error) {
	all, err := s.GetSettings(ctx)
	if err != nil {
		return nil, false, err
	}
	v, ok := all[key]
	return v, ok, nil
}

// PutSettings stores each of in's settings (see PutSetting).
func (s *Store) PutSettings(ctx context.Context, in map[string]json.RawMessage) error {
	for k, v := range in {
		if err := s.PutSetting(ctx, k, v); err != nil {
			return err
		}
	}
	return nil
}

// Ping reads the schema table: it touches the file, not just the pool
// (deep health).
func (s *Store) Ping(ctx context.Context) error {
	var n int
	return s.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n)
}
