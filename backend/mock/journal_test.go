package mock_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/mock"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A set field is called; a nil one fails loudly, naming the method.
func TestJournalCallsFieldsAndNamesMissingOnes(t *testing.T) {
	j := &mock.Journal{GetRunFunc: func(_ context.Context, id string) (run.Run, error) { return run.Run{ID: id}, nil }}
	if r, err := j.GetRun(context.Background(), "run_1"); err != nil || r.ID != "run_1" {
		t.Fatalf("GetRun = %+v, %v", r, err)
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "Submit") {
			t.Fatalf("panic %q, want one naming Submit", msg)
		}
	}()
	_, _ = j.Submit(context.Background(), run.SubmitRequest{})
}
