package journal

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A model a person chose (set-model control, By "user") is stored on the
// session for its next run; the agent's own report is not. The session's
// model can also be set directly (the picker between runs).
func TestModelChoiceIsStoredOnTheSession(t *testing.T) {
	ctx := ctxT(t)
	s := openTest(t, Options{})
	f := newFixture(t, s) // session model "m1"
	w := f.writer(t, f.sub.Run.ID)
	cases := []struct {
		ev   run.ModelUpdated
		want string
	}{
		{run.ModelUpdated{Model: "agent-default", Available: []run.ModelOption{{ID: "agent-default"}, {ID: "big"}}}, "m1"},
		{run.ModelUpdated{Model: "big", By: "user"}, "big"},
	}
	for _, c := range cases {
		if _, err := w.AppendSync(ctx, run.EventModelUpdated, c.ev); err != nil {
			t.Fatal(err)
		}
		ses, err := s.GetSession(ctx, f.ses.ID)
		if err != nil || ses.Model != c.want {
			t.Fatalf("after %+v: session model %q (%v), want %q", c.ev, ses.Model, err, c.want)
		}
	}
	m := "small"
	ses, err := s.UpdateSession(ctx, f.ses.ID, run.SessionUpdate{Model: &m})
	if err != nil || ses.Model != "small" {
		t.Fatalf("update: %+v %v", ses, err)
	}
	sub := f.submit(t, "next", "")
	if sub.Run.Model != "small" {
		t.Fatalf("next run's model %q, want the session's", sub.Run.Model)
	}
}
