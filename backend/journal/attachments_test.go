package journal

import (
	"context"
	"reflect"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A user message keeps the paths it carried, so the transcript can show
// them as chips after a reload.
func TestMessagesCarryAttachments(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := context.Background()
	paths := []string{"/w/shot.png", "/w/notes.txt"}
	if _, err := s.Submit(ctx, run.SubmitRequest{SessionID: f.ses.ID, Message: "see", ClientRequestID: "c1", Attachments: paths}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Submit(ctx, run.SubmitRequest{SessionID: f.ses.ID, Message: "plain", ClientRequestID: "c2"}); err != nil {
		t.Fatal(err)
	}
	msgs, err := s.Messages(ctx, f.ses.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, m := range msgs {
		if m.Role == "user" {
			got = append(got, m.Attachments)
		}
	}
	if len(got) >= 2 {
		got = got[len(got)-2:] // the fixture may have sent its own first
	}
	if want := [][]string{paths, nil}; !reflect.DeepEqual(got, want) {
		t.Fatalf("user messages' attachments = %q, want %q", got, want)
	}
}
