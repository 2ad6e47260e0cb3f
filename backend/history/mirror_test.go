package history_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

type mirrored struct {
	im  history.Imported
	err error
	at  time.Time
}

// TestMirror: a writer that appends (in pieces, a half line first),
// truncates, rotates and deletes a Codex rollout while the mirror watches;
// the journal's session follows and is never lost.
func TestMirror(t *testing.T) {
	ctx := context.Background()
	f := history.Codex{}
	j := openJournal(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := make(chan mirrored, 64)
	m, err := history.Watch(f, root, func(f history.Format, p string) {
		im, err := history.ImportFile(ctx, j, f, p, time.Now())
		got <- mirrored{im, err, time.Now()}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	files, _ := f.Discover(recorded(f))
	full, _ := os.ReadFile(files[0])
	lines := bytes.SplitAfter(full, []byte("\n"))
	cut := 0
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"function_call_output"`)) {
			cut = i
			break
		}
	}
	dir := filepath.Join(root, "sessions", "2026", "11", "27")
	p := filepath.Join(dir, filepath.Base(files[0]))
	// wait reads mirror calls until ok says done.
	wait := func(what string, ok func(mirrored) bool) mirrored {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case g := <-got:
				if ok(g) {
					return g
				}
			case <-timeout:
				t.Fatalf("%s: no mirror call", what)
			}
		}
	}

	// A new day's folder and a new session (tool turn still open).
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, bytes.Join(lines[:cut], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	first := wait("new file", func(g mirrored) bool { return g.err == nil && g.im.Created })
	if first.im.Added != 1 {
		t.Fatalf("new file: %+v", first.im)
	}

	fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	rest := bytes.Join(lines[cut:], nil)
	half := len(lines[cut]) / 2
	if _, err := fh.Write(rest[:half]); err != nil { // a half-written line
		t.Fatal(err)
	}
	wait("half line", func(g mirrored) bool { return true })
	start := time.Now()
	if _, err := fh.Write(rest[half:]); err != nil {
		t.Fatal(err)
	}
	g := wait("appended lines", func(g mirrored) bool { return g.err == nil && g.im.Added > 0 })
	if g.im.Added != 2 || g.im.Session.ID != first.im.Session.ID {
		t.Fatalf("appended: %+v", g.im)
	}
	if lag := g.at.Sub(start); lag > time.Second {
		t.Errorf("an appended line took %v to show (want ≤ 1 s)", lag)
	}
	t.Logf("appended lines imported %v after the write", g.at.Sub(start))
	fh.Close()

	// Truncated: nothing to import, the session stays.
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	wait("truncate", func(g mirrored) bool { return errors.Is(g.err, history.ErrNotSession) })

	// Rotated: the old file renamed away, the same conversation written anew.
	if err := os.Rename(p, p+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, full, 0o644); err != nil {
		t.Fatal(err)
	}
	g = wait("rotate", func(g mirrored) bool { return g.err == nil && g.im.File == p && !g.im.Created })
	if g.im.Session.ID != first.im.Session.ID {
		t.Fatalf("rotate: %+v", g.im)
	}

	// Deleted: the imported session stays as it was.
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p + ".1"); err != nil {
		t.Fatal(err)
	}
	// A junk file and then another session: the mirror is still alive and
	// skips what is not a session.
	other := filepath.Join(dir, "rollout-other.jsonl")
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x\n"), 0o644)
	_ = os.WriteFile(other, []byte("{not json\n"), 0o644)
	g = wait("after delete", func(g mirrored) bool { return g.im.File == other && len(g.im.Skipped) > 0 })
	if !errors.Is(g.err, history.ErrNotSession) || len(g.im.Skipped) != 1 {
		t.Fatalf("damaged file: %+v %v", g.im, g.err)
	}
	runs, err := j.ListRuns(ctx, run.RunFilter{SessionID: first.im.Session.ID})
	if err != nil || len(runs) != 3 {
		t.Fatalf("after delete: %d runs, %v", len(runs), err)
	}
}
