package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

func TestSessionModelPatch(t *testing.T) {
	s, _, ses := setup(t)
	str := func(v string) *string { return &v }
	cases := []struct {
		name  string
		model *string
		want  string
		bad   bool
	}{
		{"a model", str("  demo-large "), "demo-large", false},
		{"back to the default", str(""), "", false},
		{"too long", str(strings.Repeat("m", service.MaxNameBytes+1)), "", true},
		{"a newline", str("a\nb"), "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.UpdateSession(context.Background(), ses.ID, run.SessionUpdate{Model: c.model})
			if c.bad {
				if !errors.Is(err, service.ErrBadRequest) {
					t.Fatalf("err = %v, want bad request", err)
				}
				return
			}
			if err != nil || got.Model != c.want {
				t.Fatalf("model %q (%v), want %q", got.Model, err, c.want)
			}
		})
	}
}
