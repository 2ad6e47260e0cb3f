package journal

import (
	"context"
	"errors"
	"testing"
)

// Every resource's read or change by id says a missing one the same way
// (oneOf, changeOne, rows.go): ErrNotFound, "journal: <noun> <id>"; an
// empty list of review comments is a list, not null on the wire.
func TestAMissingRow(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	for _, tc := range []struct {
		want string
		get  func() error
	}{
		{"journal: run run_x: not found", func() error { _, err := s.GetRun(ctx, "run_x"); return err }},
		{"journal: session ses_x: not found", func() error { _, err := s.GetSession(ctx, "ses_x"); return err }},
		{"journal: workspace wsp_x: not found", func() error { _, err := s.GetWorkspace(ctx, "wsp_x"); return err }},
		{"journal: schedule sch_x: not found", func() error { _, err := s.GetSchedule(ctx, "sch_x"); return err }},
		{"journal: review comment rvc_x: not found", func() error { _, err := s.GetReviewComment(ctx, "rvc_x"); return err }},
		{"journal: project prj_x: not found", func() error { _, err := s.RenameProject(ctx, "prj_x", "n"); return err }},
		{"journal: project prj_x: not found", func() error { _, err := s.MoveProject(ctx, "prj_x", "/w"); return err }},
		{"journal: session ses_x: not found", func() error { return s.SetSessionHandover(ctx, "ses_x", "text") }},
		{"journal: session ses_x: not found", func() error { return s.SetSessionFork(ctx, "ses_x", "{}") }},
		{"journal: review comment rvc_x: not found", func() error { return s.DeleteReviewComment(ctx, "rvc_x") }},
		{"journal: schedule sch_x: not found", func() error { return s.DeleteSchedule(ctx, "sch_x") }},
		{"journal: session ses_x: not found", func() error { _, err := s.SessionHandover(ctx, "ses_x"); return err }},
		{"journal: session ses_x: not found", func() error { _, err := s.SessionFork(ctx, "ses_x"); return err }},
	} {
		err := tc.get()
		if !errors.Is(err, ErrNotFound) || err.Error() != tc.want {
			t.Errorf("got %v, want %q (ErrNotFound)", err, tc.want)
		}
	}
	if got, err := s.ReviewComments(ctx, "wsp_x"); err != nil || got == nil {
		t.Errorf("ReviewComments of none = %#v, %v; want an empty list", got, err)
	}
	if got, err := s.ListWorkspaces(ctx, ""); err != nil || len(got) != 0 {
		t.Errorf("ListWorkspaces = %v, %v", got, err)
	}
}
