package journal

import (
	"context"
	"errors"
	"github.com/hermesdesk/hermesdesk/testkit/tmpfs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// mountTmpfs mounts a small tmpfs (root only; testkit/tmpfs).
func mountTmpfs(t *testing.T, opts string) string {
	return tmpfs.Mount(t, strings.TrimPrefix(opts, "size="))
}

func remountRO(t *testing.T, dir string) { tmpfs.ReadOnly(t, dir) }

func TestReadOnly(t *testing.T) {
	t.Run("new database in a read-only dir", func(t *testing.T) {
		dir := mountTmpfs(t, "size=1m")
		remountRO(t, dir)
		path := filepath.Join(dir, "journal.db")
		_, err := Open(path, Options{})
		if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), path) {
			t.Fatalf("Open = %v", err)
		}
	})
	t.Run("read-only data dir parent", func(t *testing.T) {
		dir := mountTmpfs(t, "size=1m")
		remountRO(t, dir)
		_, err := Open(filepath.Join(dir, "sub", "journal.db"), Options{})
		if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), filepath.Join(dir, "sub")) {
			t.Fatalf("Open = %v", err)
		}
	})
	t.Run("existing database on a read-only disk", func(t *testing.T) {
		dir := mountTmpfs(t, "size=4m")
		path := filepath.Join(dir, "journal.db")
		s, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, s)
		s.Close()
		remountRO(t, dir)
		_, err = Open(path, Options{})
		if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), path) {
			t.Fatalf("Open = %v", err)
		}
		_ = f
	})
}

func TestDiskFull(t *testing.T) {
	type setup func(t *testing.T) (path string, opts Options, free func())
	cases := map[string]setup{
		// A real ENOSPC from a tiny tmpfs; a ballast file is deleted to
		// free space again.
		"tmpfs": func(t *testing.T) (string, Options, func()) {
			dir := mountTmpfs(t, "size=2m")
			ballast := filepath.Join(dir, "ballast")
			if err := os.WriteFile(ballast, make([]byte, 1200<<10), 0o600); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, "journal.db"), Options{}, func() { os.Remove(ballast) }
		},
		// SQLite's own size cap: portable, no root needed. Freeing is not
		// possible, so the done must fit in pages already allocated.
		"max_page_count": func(t *testing.T) (string, Options, func()) {
			return filepath.Join(t.TempDir(), "journal.db"), Options{maxPageCount: 64}, nil
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			path, opts, free := mk(t)
			s, err := Open(path, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			f := newFixture(t, s)
			ctx := ctxT(t)
			w := f.writer(t, f.sub.Run.ID)
			big := strings.Repeat("x", 2000)
			var committed int64
			var failure error
			for i := 0; i < 5000 && failure == nil; i++ {
				ev, err := w.AppendSync(ctx, run.EventProgress, run.Progress{Message: big})
				if err != nil {
					failure = err
					break
				}
				committed = ev.Seq
			}
			if !errors.Is(failure, ErrDiskFull) || !strings.Contains(failure.Error(), path) {
				t.Fatalf("filling the disk: %v", failure)
			}
			if _, err := w.Append(run.EventProgress, run.Progress{Message: "more"}); !errors.Is(err, ErrDiskFull) {
				t.Fatalf("async append after a failed commit: %v", err)
			}
			if free != nil {
				free()
			}
			// The run can still be ended: the terminal state is never lost.
			done, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusFailed, Error: "disk full"})
			if err != nil {
				t.Fatalf("done after disk full: %v", err)
			}
			if done.Seq != committed+1 {
				t.Fatalf("done seq %d after %d committed", done.Seq, committed)
			}
			evs := checkGapless(t, s, f.sub.Run.ID)
			if int64(len(evs)) != committed+1 {
				t.Fatalf("%d events, want %d", len(evs), committed+1)
			}
			var ok string
			s.DB().QueryRow("PRAGMA integrity_check").Scan(&ok)
			if ok != "ok" {
				t.Fatalf("integrity: %s", ok)
			}
		})
	}
}

// Two writers for one run (a bug, or a shim that was wrongly fenced): the
// second one's events are refused by the database, nothing is duplicated,
// and a second done is refused too.
func TestDuplicateAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	a, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path, Options{}) // another "process"
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	f := newFixture(t, a)
	ctx := ctxT(t)
	wa := f.writer(t, f.sub.Run.ID)
	wb, err := b.OpenWriter(ctx, f.sub.Run.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	for i := 0; i < 3; i++ {
		if _, err := wa.AppendSync(ctx, run.EventProgress, run.Progress{Message: "a"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := wb.AppendSync(ctx, run.EventProgress, run.Progress{Message: "b"}); !errors.Is(err, ErrConflict) {
		t.Fatalf("duplicate seq: %v", err)
	}
	// A sync append resynchronizes b after the failure: it now continues
	// after a's events instead of overwriting them.
	if ev, err := wb.AppendSync(ctx, run.EventProgress, run.Progress{Message: "b2"}); err != nil || ev.Seq != 4 {
		t.Fatalf("resynced append = %+v, %v", ev, err)
	}
	if _, err := wb.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted}); err != nil {
		t.Fatal(err)
	}
	// a still believes seq 5 is next: the database refuses its done.
	if _, err := wa.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusFailed}); !errors.Is(err, ErrRunTerminal) && !errors.Is(err, ErrConflict) {
		t.Fatalf("second done: %v", err)
	}
	// And after resync a knows the run ended.
	if _, err := wa.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusFailed}); !errors.Is(err, ErrRunTerminal) {
		t.Fatalf("done after resync: %v", err)
	}
	// Direct SQL cannot add a second done either.
	_, err = a.DB().ExecContext(context.Background(), `INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, 6, 'done', 0, '{}')`, f.sub.Run.ID)
	if err == nil {
		t.Fatal("database accepted a second done")
	}
	evs := checkGapless(t, a, f.sub.Run.ID)
	if len(evs) != 5 {
		t.Fatalf("%d events", len(evs))
	}
}
