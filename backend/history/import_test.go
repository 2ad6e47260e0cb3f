package history_test

import (
	"errors"

	"bytes"
	"context"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

func openJournal(t *testing.T) *journal.Store {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return j
}

func rowCounts(t *testing.T, j *journal.Store) string {
	t.Helper()
	var out []string
	for _, table := range []string{"projects", "sessions", "messages", "runs", "events"} {
		var n int
		if err := j.DB().QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s=%d", table, n))
	}
	return strings.Join(out, " ")
}

// TestImportIntoJournal: every recorded session lands in the project of its
// folder (made once, shared by both agents), badged and continuable by its
// own id, its tool output searchable; importing again stores nothing.
func TestImportIntoJournal(t *testing.T) {
	ctx := context.Background()
	j := openJournal(t)
	var first []history.Imported
	for _, f := range history.Formats() {
		files, err := f.Discover(recorded(f))
		if err != nil || len(files) != 1 {
			t.Fatalf("%s: %v %v", f.Agent(), files, err)
		}
		im, err := history.ImportFile(ctx, j, f, files[0], time.Now())
		if err != nil || !im.Created || im.Added != 3 {
			t.Fatalf("%s: %+v %v", f.Agent(), im, err)
		}
		first = append(first, im)
	}
	ps, _ := j.ListProjects(ctx)
	if len(ps) != 1 || ps[0].Workspace != "/work" || ps[0].Name != "work" {
		t.Fatalf("projects %+v, want one made for /work", ps)
	}
	for _, im := range first {
		s := im.Session
		if s.ProjectID != ps[0].ID || s.NativeSessionID == "" || !strings.HasPrefix(s.ImportedFrom, map[string]string{"claude": "Claude Code 2.1", "codex": "Codex 0.",
			"gemini": "Gemini CLI: ", "qwen": "Qwen Code 0.", "opencode": "OpenCode 1.", "hermes": "Hermes Agent"}[s.Agent]) {
			t.Fatalf("session %+v", s)
		}
		runs, err := j.ListRuns(ctx, run.RunFilter{SessionID: s.ID})
		if err != nil || len(runs) != 3 {
			t.Fatalf("%s: %d runs, %v", s.Agent, len(runs), err)
		}
		for _, r := range runs {
			if r.Status != run.StatusCompleted {
				t.Fatalf("%s: run %+v", s.Agent, r)
			}
		}
	}
	hits, err := j.Search(ctx, "hello", 20)
	tools := 0
	for _, h := range hits {
		if h.Kind == "tool" {
			tools++
		}
	}
	if err != nil || tools != len(history.Formats()) {
		t.Fatalf("search hello: %+v %v, want the tool output of every session", hits, err)
	}

	before := rowCounts(t, j)
	for i, f := range history.Formats() {
		im, err := history.ImportFile(ctx, j, f, first[i].File, time.Now())
		if err != nil || im.Created || im.Added != 0 || im.Session.ID != first[i].Session.ID {
			t.Fatalf("second import of %s: %+v %v", f.Agent(), im, err)
		}
	}
	if after := rowCounts(t, j); after != before {
		t.Fatalf("importing twice changed the rows: %s → %s", before, after)
	}
}

// TestImportUsesTheFolderProject: a project already on the folder is used.
func TestImportUsesTheFolderProject(t *testing.T) {
	ctx := context.Background()
	j := openJournal(t)
	p, err := j.CreateProject(ctx, "mine", "/work/")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := history.Claude{}.Discover(recorded(history.Claude{}))
	im, err := history.ImportFile(ctx, j, history.Claude{}, files[0], time.Now())
	if err != nil || im.Session.ProjectID != p.ID {
		t.Fatalf("%+v %v", im.Session, err)
	}
	if ps, _ := j.ListProjects(ctx); len(ps) != 1 {
		t.Fatalf("projects %+v", ps)
	}
}

// TestImportGrowingFile: a file that grows gets its new turns appended to
// the same session; an open last turn (a tool still running) waits for its
// end, unless the file has been left alone for a while.
func TestImportGrowingFile(t *testing.T) {
	ctx := context.Background()
	for _, f := range history.Formats() {
		if _, ok := f.(history.Database); ok {
			continue // TestImportGrowingDatabase
		}
		t.Run(f.Agent(), func(t *testing.T) {
			j := openJournal(t)
			files, _ := f.Discover(recorded(f))
			full, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.SplitAfter(full, []byte("\n"))
			// cut: the first line of the tool's result — the tool turn is
			// open. (Gemini CLI writes a call with its result: the turn is
			// open until the model answered it.)
			cut := -1
			for i, l := range lines {
				if bytes.Contains(l, []byte(`"tool_result"`)) || bytes.Contains(l, []byte(`"function_call_output"`)) {
					cut = i
					break
				}
				if bytes.Contains(l, []byte(`"toolCalls"`)) {
					cut = i + 1
					break
				}
			}
			if cut < 0 {
				t.Fatal("no tool result in the recording")
			}
			p := filepath.Join(t.TempDir(), filepath.Base(files[0]))
			write := func(n int) {
				if err := os.WriteFile(p, bytes.Join(lines[:n], nil), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			now := time.Now()
			write(cut)
			im, err := history.ImportFile(ctx, j, f, p, now)
			if err != nil || !im.Created || im.Added != 1 {
				t.Fatalf("first part: %+v %v; want the reasoning turn only", im, err)
			}
			write(len(lines))
			im2, err := history.ImportFile(ctx, j, f, p, now)
			if err != nil || im2.Created || im2.Added != 2 || im2.Session.ID != im.Session.ID {
				t.Fatalf("grown: %+v %v; want the tool and resumed turns added", im2, err)
			}
			runs, _ := j.ListRuns(ctx, run.RunFilter{SessionID: im.Session.ID})
			if len(runs) != 3 {
				t.Fatalf("%d runs", len(runs))
			}
			evs, _ := j.Events(ctx, runs[1].ID, 0, 100) // newest first: runs[1] is the tool turn
			var types []string
			for _, e := range evs {
				types = append(types, string(e.Type))
			}
			if got := strings.Join(types, " "); !strings.Contains(got, "tool.started tool.done") {
				t.Fatalf("tool turn events %s", got)
			}

			// An open turn in a file left alone is stored as it is.
			j2 := openJournal(t)
			write(cut)
			if im, err := history.ImportFile(ctx, j2, f, p, now.Add(time.Hour)); err != nil || im.Added != 2 {
				t.Fatalf("settled: %+v %v", im, err)
			}
		})
	}
}

// TestContinueImported: a history session continued in the app is an
// ordinary session; its file growing (the agent writes the app's turns
// there too) neither adds to it nor makes a second copy. A bundle's
// session stays read-only.
func TestContinueImported(t *testing.T) {
	ctx := context.Background()
	j := openJournal(t)
	f := history.Claude{}
	files, _ := f.Discover(recorded(f))
	full, _ := os.ReadFile(files[0])
	lines := bytes.SplitAfter(full, []byte("\n"))
	p := filepath.Join(t.TempDir(), filepath.Base(files[0]))
	if err := os.WriteFile(p, bytes.Join(lines[:10], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	im, err := history.ImportFile(ctx, j, f, p, time.Now())
	if err != nil || !im.Created {
		t.Fatalf("%+v %v", im, err)
	}
	ses, err := j.ContinueImported(ctx, im.Session.ID)
	if err != nil || ses.ImportedFrom != "" || ses.NativeSessionID != im.Session.NativeSessionID {
		t.Fatalf("continue: %+v %v", ses, err)
	}
	if err := os.WriteFile(p, full, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := history.ImportFile(ctx, j, f, p, time.Now())
	if err != nil || again.Created || again.Added != 0 || again.Session.ID != im.Session.ID {
		t.Fatalf("after continue: %+v %v", again, err)
	}
	all, _ := j.ListSessions(ctx, "")
	if len(all) != 1 {
		t.Fatalf("%d sessions", len(all))
	}
	if _, err := j.ContinueImported(ctx, im.Session.ID); err != nil {
		t.Fatalf("continuing twice: %v", err)
	}

	b, _ := history.ToBundle(&history.Session{Origin: history.Origin{Agent: "claude", NativeID: "x"}, Turns: nil})
	bs, err := j.ImportSession(ctx, b, bundle.ImportOptions{Source: "a.hdbundle.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.ContinueImported(ctx, bs.ID); !errors.Is(err, journal.ErrSessionImported) {
		t.Fatalf("a bundle's session continued: %v", err)
	}
}
