package journal

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// FuzzAppend feeds arbitrary types and payload bytes to a Writer: each is
// either refused with ErrInvalidEvent or committed as a valid JSON object;
// the run stays gapless and the process never panics.
func FuzzAppend(f *testing.F) {
	f.Add("progress", []byte(`{"message":"hi"}`))
	f.Add("token.delta", []byte(`{"text":"sk-ant-abc"}`))
	f.Add("token.delta", []byte(`{"text":"x","index":3}`))
	f.Add("done", []byte(`{"status":"running"}`))
	f.Add("status", []byte(`{"status":"bogus"}`))
	f.Add("vendor.thing", []byte(`{"a":[1,2,{"b":null}]}`))
	f.Add("progress", []byte(`{"message":"x`))
	f.Add("progress", []byte("\xff\xfe"))
	f.Add("approval.requested", []byte(`{}`))
	s := openTest(f, Options{})
	fx := newFixture(f, s)
	w, err := s.OpenWriter(context.Background(), fx.sub.Run.ID)
	if err != nil {
		f.Fatal(err)
	}
	var mu sync.Mutex
	f.Fuzz(func(t *testing.T, typ string, payload []byte) {
		mu.Lock()
		defer mu.Unlock()
		if run.EventType(typ) == run.EventDone {
			typ = "not.done" // keep the shared run open
		}
		ev, err := w.AppendSync(context.Background(), run.EventType(typ), json.RawMessage(payload))
		if err != nil {
			if !errors.Is(err, ErrInvalidEvent) {
				t.Fatalf("Append(%q, %q): %v", typ, payload, err)
			}
			return
		}
		if ev.Seq != 0 && !json.Valid(ev.Payload) {
			t.Fatalf("stored invalid JSON %q", ev.Payload)
		}
	})
}

func TestConcurrentSubmitSameRequest(t *testing.T) {
	s := openTest(t, Options{})
	f := newFixture(t, s)
	ctx := ctxT(t)
	var wg sync.WaitGroup
	subs := make([]run.Submission, 8)
	errs := make([]error, 8)
	for i := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			subs[i], errs[i] = s.Submit(ctx, run.SubmitRequest{SessionID: f.ses.ID, Message: "once", ClientRequestID: "same"})
		}()
	}
	wg.Wait()
	fresh := 0
	for i := range subs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if subs[i].Run.ID != subs[0].Run.ID {
			t.Fatalf("two runs for one request: %s %s", subs[i].Run.ID, subs[0].Run.ID)
		}
		if !subs[i].Existing {
			fresh++
		}
	}
	if fresh != 1 {
		t.Fatalf("%d fresh submissions", fresh)
	}
}

// FuzzDeltaPayload: the hand-written delta encoder agrees with
// encoding/json on every string.
func FuzzDeltaPayload(f *testing.F) {
	for _, s := range []string{"", "plain", "quote\" back\\ nl\n tab\t", "\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "héllo 世界 🎉"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := deltaPayload(s, nil)
		if !json.Valid(got) {
			t.Fatalf("invalid JSON %q for %q", got, s)
		}
		var back run.TextDelta
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(run.TextDelta{Text: s})
		var wantBack run.TextDelta
		json.Unmarshal(want, &wantBack)
		if back.Text != wantBack.Text {
			t.Fatalf("decoded %q, encoding/json gives %q", back.Text, wantBack.Text)
		}
	})
}
