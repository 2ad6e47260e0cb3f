package journal

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/redact"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestWriterRedactsSplitSecrets(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	key := "sk-ant-" + strings.Repeat("Q7x_", 10)
	pieces := []string{"Your key is ", key[:9], key[9:25], key[25:], " — keep it safe."}
	for _, p := range pieces {
		if _, err := w.Append(run.EventTokenDelta, run.TextDelta{Text: p}); err != nil {
			t.Fatal(err)
		}
	}
	// A tool call in between releases held text first, keeping order.
	if _, err := w.Append(run.EventToolStarted, run.ToolStarted{ToolCallID: "t1", Name: "bash",
		Input: map[string]string{"cmd": "curl -H 'Authorization: Bearer abcdefghijklmnopq' https://x"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted}); err != nil {
		t.Fatal(err)
	}
	evs := checkGapless(t, s, f.sub.Run.ID)
	var all strings.Builder
	var text strings.Builder
	for _, ev := range evs {
		all.Write(ev.Payload)
		if ev.Type == run.EventTokenDelta {
			text.WriteString(textOf(t, ev))
		}
	}
	for _, secret := range []string{key[7:], "abcdefghijklmnopq", key[9:25]} {
		if strings.Contains(all.String(), secret) {
			t.Fatalf("secret %q stored: %s", secret, all.String())
		}
	}
	want := "Your key is sk-ant-" + redact.Mask + " — keep it safe."
	if text.String() != want {
		t.Fatalf("assembled %q, want %q", text.String(), want)
	}
	msgs, _ := s.Messages(ctx, f.ses.ID)
	if msgs[1].Content != want {
		t.Fatalf("assistant message %q", msgs[1].Content)
	}
	if evs[len(evs)-2].Type != run.EventToolStarted {
		t.Fatalf("order: %v", evs)
	}
}

func TestInterruptRun(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	id := f.sub.Run.ID
	w := f.writer(t, id)
	w.Append(run.EventRunStarted, run.RunStarted{Agent: "fake"})
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "partial answer"})
	if _, err := s.InterruptRun(ctx, id, "shim died", ""); !errors.Is(err, ErrWriterBusy) {
		t.Fatalf("interrupt with a live writer: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	before, _ := s.GetSession(ctx, f.ses.ID)
	written, err := s.InterruptRun(ctx, id, "the shim stopped", "log tail: password=hunter22 oops")
	if err != nil || !written {
		t.Fatalf("InterruptRun = %v, %v", written, err)
	}
	again, err := s.InterruptRun(ctx, id, "again", "")
	if err != nil || again {
		t.Fatalf("second InterruptRun = %v, %v", again, err)
	}
	evs := checkGapless(t, s, id)
	n := len(evs)
	if n != 4 || evs[n-2].Type != run.EventError || evs[n-1].Type != run.EventDone {
		t.Fatalf("events: %+v", evs)
	}
	if strings.Contains(string(evs[n-2].Payload), "hunter22") {
		t.Fatalf("detail not redacted: %s", evs[n-2].Payload)
	}
	var d run.Done
	json.Unmarshal(evs[n-1].Payload, &d)
	if d.Status != run.StatusInterrupted || d.Error != "the shim stopped" {
		t.Fatalf("done = %+v", d)
	}
	r, _ := s.GetRun(ctx, id)
	tr, _ := s.GetTurn(ctx, r.TurnID)
	after, _ := s.GetSession(ctx, f.ses.ID)
	if r.Status != run.StatusInterrupted || tr.State != run.TurnInterrupted || tr.Outcome != run.StatusInterrupted {
		t.Fatalf("run %+v turn %+v", r, tr)
	}
	if !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("maintenance moved updated_at: %v → %v", before.UpdatedAt, after.UpdatedAt)
	}
	msgs, _ := s.Messages(ctx, f.ses.ID)
	if msgs[1].Content != "partial answer" || msgs[1].RunStatus != run.StatusInterrupted || msgs[1].Error != "the shim stopped" {
		t.Fatalf("assistant message = %+v", msgs[1])
	}
	a, err := s.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Pending) != 0 || len(a.Interrupted) != 1 || len(a.Malformed) != 0 {
		t.Fatalf("audit = %+v", a)
	}
}

func TestAuditFindsPendingAndMalformed(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	w.AppendSync(ctx, run.EventProgress, run.Progress{Message: "x"})
	a, err := s.Audit(ctx)
	if err != nil || len(a.Pending) != 1 || a.Pending[0].RunID != f.sub.Run.ID || len(a.Malformed) != 0 {
		t.Fatalf("audit = %+v, %v", a, err)
	}
	// Damage the database behind the journal's back.
	db := s.DB()
	db.Exec(`INSERT INTO events (run_id, seq, type, created_at, payload) VALUES (?, 5, 'progress', 0, 'not json')`, f.sub.Run.ID)
	db.Exec(`UPDATE runs SET terminal = 1 WHERE id = ?`, f.sub.Run.ID)
	a, err = s.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, m := range a.Malformed {
		problems = append(problems, m.Problem)
	}
	got := strings.Join(problems, "|")
	for _, want := range []string{"no done event", "turn is still open", "last_seq", "gaps", "not valid JSON"} {
		if !strings.Contains(got, want) {
			t.Errorf("audit misses %q: %s", want, got)
		}
	}
}

func TestSearch(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	w.Append(run.EventReasoningDelta, run.TextDelta{Text: "pondering the "})
	w.Append(run.EventReasoningDelta, run.TextDelta{Text: "zebrafish question"})
	w.Append(run.EventReasoningDone, run.TextDone{})
	w.Append(run.EventToolStarted, run.ToolStarted{ToolCallID: "t1", Name: "bash", Input: map[string]string{"command": "make flibbertigibbet"}})
	w.Append(run.EventToolUpdated, run.ToolUpdated{ToolCallID: "t1", Output: "compiling quuxlib\n"})
	w.Append(run.EventToolDone, run.ToolDone{ToolCallID: "t1", Status: "completed"})
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "The answer is "})
	w.Flush(ctx)
	// Deltas are not indexed until their block completes.
	if hits, _ := s.Search(ctx, "answer", 10); len(hits) != 0 {
		t.Fatalf("indexed per delta: %+v", hits)
	}
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "platypus."})
	if _, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		q, kind string
	}{
		{"platypus", "assistant"}, {"zebrafish", "reasoning"}, {"quuxlib", "tool"}, {"hello", "user"},
		{"flibbertigibbet", "tool"}, // the command that ran
		{"plat", "assistant"},       // prefix of the last term
	}
	for _, c := range cases {
		hits, err := s.Search(ctx, c.q, 10)
		if err != nil || len(hits) != 1 || hits[0].Kind != c.kind || hits[0].SessionID != f.ses.ID {
			t.Errorf("Search(%q) = %+v, %v", c.q, hits, err)
			continue
		}
		if c.kind != "user" && hits[0].RunID != f.sub.Run.ID {
			t.Errorf("Search(%q) run id %q", c.q, hits[0].RunID)
		}
		if !strings.Contains(hits[0].Snippet, HighlightStart) {
			t.Errorf("snippet %q has no highlight", hits[0].Snippet)
		}
	}
	for _, q := range []string{`"unbalanced`, `AND OR NOT`, `NEAR(`, `*`, `col:x`, `)(`, `""`, "   ", `a" OR "b`, "\x00"} {
		if _, err := s.Search(ctx, q, 10); err != nil {
			t.Errorf("Search(%q): %v", q, err)
		}
	}
	if err := s.DeleteSession(ctx, f.ses.ID); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.Search(ctx, "platypus", 10); len(hits) != 0 {
		t.Fatalf("deleted session still found: %+v", hits)
	}
	var left int
	s.DB().QueryRow(`SELECT (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM runs) + (SELECT COUNT(*) FROM turns) + (SELECT COUNT(*) FROM messages)`).Scan(&left)
	if left != 0 {
		t.Fatalf("%d rows of the deleted session remain", left)
	}
}

func TestCompact(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	id := f.sub.Run.ID
	w := f.writer(t, id)
	w.Append(run.EventRunStarted, run.RunStarted{Agent: "fake"})
	w.Append(run.EventReasoningDelta, run.TextDelta{Text: "think "})
	w.Append(run.EventReasoningDelta, run.TextDelta{Text: "hard"})
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "one "})
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "two "})
	w.Append(run.EventToolStarted, run.ToolStarted{ToolCallID: "t", Name: "ls"})
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "three"})
	if _, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted}); err != nil {
		t.Fatal(err)
	}
	live := f.submit(t, "second", "")
	lw := f.writer(t, live.Run.ID)
	lw.AppendSync(ctx, run.EventTokenDelta, run.TextDelta{Text: "live"})
	before, _ := s.GetSession(ctx, f.ses.ID)
	msgsBefore, _ := s.Messages(ctx, f.ses.ID)

	// Retention is off by default.
	if st, err := s.ApplyRetention(ctx); err != nil || st.Runs != 0 {
		t.Fatalf("retention without a setting: %+v %v", st, err)
	}
	s.PutSetting(ctx, SettingRetentionDays, json.RawMessage(`"soon"`))
	if _, err := s.ApplyRetention(ctx); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad retention setting: %v", err)
	}
	s.PutSetting(ctx, SettingRetentionDays, json.RawMessage(`30`))
	if st, err := s.ApplyRetention(ctx); err != nil || st.Runs != 0 {
		t.Fatalf("retention of 30 days compacted a new run: %+v %v", st, err)
	}
	st, err := s.Compact(ctx, time.Hour)
	if err != nil || st.Runs != 0 {
		t.Fatalf("recent runs compacted: %+v %v", st, err)
	}
	st, err = s.Compact(ctx, 0)
	if err != nil || st.Runs != 1 || st.EventsRemoved != 5 || st.MarkersAdded != 3 {
		t.Fatalf("Compact = %+v, %v", st, err)
	}
	evs, _ := s.Events(ctx, id, 0, 100)
	var kinds []string
	var seqs []int64
	for _, ev := range evs {
		kinds = append(kinds, string(ev.Type))
		seqs = append(seqs, ev.Seq)
	}
	if strings.Join(kinds, ",") != "run.started,compacted,compacted,tool.started,compacted,done" {
		t.Fatalf("after compaction: %v %v", kinds, seqs)
	}
	var c run.Compacted
	json.Unmarshal(evs[2].Payload, &c)
	if c.Text != "one two " || c.FromSeq != 4 || c.ToSeq != 5 || c.Events != 2 || evs[2].Seq != 4 {
		t.Fatalf("marker = %+v at %d", c, evs[2].Seq)
	}
	json.Unmarshal(evs[1].Payload, &c)
	if c.Reasoning != "think hard" {
		t.Fatalf("reasoning marker = %+v", c)
	}
	after, _ := s.GetSession(ctx, f.ses.ID)
	msgsAfter, _ := s.Messages(ctx, f.ses.ID)
	if !after.UpdatedAt.Equal(before.UpdatedAt) || msgsAfter[1].Content != msgsBefore[1].Content {
		t.Fatalf("compaction changed the session or transcript")
	}
	text, _, _ := assembleText(ctx, s.DB(), id)
	if text != "one two three" {
		t.Fatalf("assembled after compaction: %q", text)
	}
	if n, _ := s.Events(ctx, live.Run.ID, 0, 10); len(n) != 1 {
		t.Fatalf("live run touched")
	}
	if a, _ := s.Audit(ctx); len(a.Malformed) != 0 {
		t.Fatalf("audit after compaction: %+v", a.Malformed)
	}
	if st, _ := s.Compact(ctx, 0); st.Runs != 0 {
		t.Fatalf("second compaction: %+v", st)
	}
}

func TestSessionsAndSettings(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	other, err := s.CreateSession(ctx, run.Session{ProjectID: f.ses.ProjectID, Agent: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	list, _ := s.ListSessions(ctx, f.ses.ProjectID)
	if len(list) != 2 || list[0].ID != other.ID {
		t.Fatalf("newest session first: %+v", list)
	}
	// Maintenance does not reorder; user activity does.
	native := "native-1"
	if _, err := s.UpdateSession(ctx, f.ses.ID, run.SessionUpdate{NativeSessionID: &native}); err != nil {
		t.Fatal(err)
	}
	if list, _ = s.ListSessions(ctx, f.ses.ProjectID); list[0].ID != other.ID {
		t.Fatal("native session id moved updated_at")
	}
	title := "Renamed"
	got, err := s.UpdateSession(ctx, f.ses.ID, run.SessionUpdate{Title: &title})
	if err != nil || got.Title != "Renamed" || got.NativeSessionID != native {
		t.Fatalf("update = %+v, %v", got, err)
	}
	if list, _ = s.ListSessions(ctx, f.ses.ProjectID); list[0].ID != f.ses.ID {
		t.Fatal("title change did not move updated_at")
	}
	if _, err := s.UpdateSession(ctx, "ses_nope", run.SessionUpdate{Title: &title}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing session: %v", err)
	}
	if err := s.DeleteSession(ctx, f.ses.ID); !errors.Is(err, ErrConflict) {
		t.Fatalf("delete with an active run: %v", err)
	}
	runs, _ := s.ListRuns(ctx, run.RunFilter{Active: true, SessionID: f.ses.ID})
	if len(runs) != 1 {
		t.Fatalf("active runs: %+v", runs)
	}
	if err := s.PutSetting(ctx, "retention_days", json.RawMessage(`30`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSetting(ctx, "bad", json.RawMessage(`{`)); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad setting: %v", err)
	}
	set, _ := s.GetSettings(ctx)
	if string(set["retention_days"]) != "30" {
		t.Fatalf("settings = %v", set)
	}
	projects, _ := s.ListProjects(ctx)
	if len(projects) != 1 {
		t.Fatalf("projects = %+v", projects)
	}
	if _, err := s.GetProject(ctx, "prj_nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing project: %v", err)
	}
}

func TestHeldDeltaSemantics(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	// "sk" may be the start of a key: held, no event yet (Seq 0).
	ev, err := w.Append(run.EventTokenDelta, run.TextDelta{Text: "sk"})
	if err != nil || ev.Seq != 0 || ev.RunID != f.sub.Run.ID {
		t.Fatalf("held append = %+v, %v", ev, err)
	}
	ev, err = w.Append(run.EventTokenDelta, run.TextDelta{Text: "y is blue"})
	if err != nil || ev.Seq != 1 || textOf(t, ev) != "sky is blue" {
		t.Fatalf("released append = %+v (%s), %v", ev, ev.Payload, err)
	}
	// AppendSync never holds: the text is committed when it returns.
	ev, err = w.AppendSync(ctx, run.EventTokenDelta, run.TextDelta{Text: " a"})
	if err != nil || ev.Seq != 2 || textOf(t, ev) != " a" {
		t.Fatalf("sync append = %+v, %v", ev, err)
	}
	// Extra fields of a delta payload survive.
	ev, err = w.AppendSync(ctx, run.EventTokenDelta, json.RawMessage(`{"text":"x","index":3}`))
	if err != nil || !strings.Contains(string(ev.Payload), `"index":3`) {
		t.Fatalf("extra fields: %s %v", ev.Payload, err)
	}
	if _, err := s.CreateSession(ctx, run.Session{ProjectID: "prj_missing"}); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "prj_missing") {
		t.Fatalf("session in a missing project: %v", err)
	}
}

// Interleaved tool calls: each call's search text is its own start and its
// own streamed chunks, in order, whatever ran in between.
func TestSearchInterleavedToolCalls(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	w := f.writer(t, f.sub.Run.ID)
	w.Append(run.EventToolStarted, run.ToolStarted{ToolCallID: "a", Name: "bash", Input: map[string]string{"command": "alphacmd"}})
	w.Append(run.EventToolUpdated, run.ToolUpdated{ToolCallID: "a", Output: "alpha-first "})
	w.Append(run.EventToolStarted, run.ToolStarted{ToolCallID: "b", Name: "bash", Input: map[string]string{"command": "betacmd"}})
	w.Append(run.EventToolUpdated, run.ToolUpdated{ToolCallID: "b", Output: "betaout"})
	w.Append(run.EventToolUpdated, run.ToolUpdated{ToolCallID: "a", Output: "alpha-second"})
	w.Append(run.EventToolDone, run.ToolDone{ToolCallID: "b", Status: "completed"})
	w.Append(run.EventToolDone, run.ToolDone{ToolCallID: "a", Status: "completed"})
	if _, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted}); err != nil {
		t.Fatal(err)
	}
	var text []string
	rows, err := s.DB().QueryContext(ctx, `SELECT f.body FROM search_docs d JOIN search_fts f ON f.rowid = d.id WHERE d.kind = 'tool' ORDER BY d.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var b string
		if err := rows.Scan(&b); err != nil {
			t.Fatal(err)
		}
		text = append(text, b)
	}
	if len(text) != 2 ||
		!strings.Contains(text[0], "betacmd") || !strings.Contains(text[0], "betaout") || strings.Contains(text[0], "alpha") ||
		!strings.Contains(text[1], "alphacmd") || !strings.Contains(text[1], "alpha-first alpha-second") || strings.Contains(text[1], "beta") {
		t.Fatalf("tool search text = %q", text)
	}
}
