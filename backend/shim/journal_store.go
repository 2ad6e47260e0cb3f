package shim

import (
	"context"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// OpenJournal opens the real journal for a shim.
func OpenJournal(path string, onCommit func([]run.Event)) (Journal, error) {
	j, err := journal.Open(path, journal.Options{OnCommit: onCommit})
	if err != nil {
		return nil, err
	}
	return journalStore{j}, nil
}

var _ OpenJournalFunc = OpenJournal

type journalStore struct{ j *journal.Store }

func (s journalStore) GetRun(ctx context.Context, id string) (run.Run, error) {
	r, err := s.j.GetRun(ctx, id)
	return r, err
}

func (s journalStore) OpenWriter(ctx context.Context, runID string) (Writer, error) {
	w, err := s.j.OpenWriter(ctx, runID)
	if err != nil {
		return nil, err
	}
	return journalWriter{w}, nil
}

func (s journalStore) SetNativeSessionID(ctx context.Context, sessionID, nativeID string) error {
	_, err := s.j.UpdateSession(ctx, sessionID, journal.SessionUpdate{NativeSessionID: &nativeID})
	return err
}

func (s journalStore) Close() error { return s.j.Close() }

func (s journalStore) Checkpoint(ctx context.Context) error { return s.j.Checkpoint(ctx) }

type journalWriter struct{ w *journal.Writer }

func (w journalWriter) Append(t run.EventType, payload any) (run.Event, error) {
	ev, err := w.w.Append(t, payload)
	return ev, err
}

func (w journalWriter) AppendSync(ctx context.Context, t run.EventType, payload any) (run.Event, error) {
	ev, err := w.w.AppendSync(ctx, t, payload)
	return ev, err
}

func (w journalWriter) Flush(ctx context.Context) error { return w.w.Flush(ctx) }
func (w journalWriter) Close() error                    { return w.w.Close() }
