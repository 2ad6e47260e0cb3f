package journal

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Events shown live but lost from the journal keep their seqs: the
// interruption goes after the highest announced seq, a lost marker covers
// the missing range (so the audit finds no gap), and the audit lists the run.
func TestInterruptRunAfterLostEvents(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	id := f.sub.Run.ID
	w := f.writer(t, id)
	w.Append(run.EventRunStarted, run.RunStarted{Agent: "fake"})
	w.Append(run.EventTokenDelta, run.TextDelta{Text: "partial"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	written, err := s.InterruptRunAfter(ctx, id, "the shim stopped", "", 5)
	if err != nil || !written {
		t.Fatalf("InterruptRunAfter = %v, %v", written, err)
	}
	evs, err := s.Events(ctx, id, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		got = append(got, string(ev.Type)+"@"+itoa(ev.Seq))
	}
	if want := "run.started@1 token.delta@2 compacted@3 error@6 done@7"; strings.Join(got, " ") != want {
		t.Fatalf("events %v, want %s", got, want)
	}
	var c run.Compacted
	json.Unmarshal(evs[2].Payload, &c)
	if !c.Lost || c.FromSeq != 3 || c.ToSeq != 5 {
		t.Fatalf("marker %+v", c)
	}
	if r, _ := s.GetRun(ctx, id); r.LastSeq != 7 || r.Status != run.StatusInterrupted {
		t.Fatalf("run %+v", r)
	}
	a, err := s.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Malformed) != 1 || a.Malformed[0].RunID != id || !strings.Contains(a.Malformed[0].Problem, "lost") {
		t.Fatalf("audit malformed: %+v", a.Malformed)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
