package httpapi

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The hand-written envelope must decode to what encoding/json produces,
// and a frame must stay one SSE event whatever the strings hold.
func FuzzAppendFrame(f *testing.F) {
	f.Add("run_1", int64(42), "ses_1", "token.delta", 1778750000.123, false, []byte(`{"text":"hi"}`))
	f.Add("r\"un\n", int64(-1), "s\u2028", "done", 1e-9, true, []byte("{\n \"a\": 1\n}"))
	f.Add("é<>&", int64(0), "", "x\ry", 1e21, false, []byte(`not json`))
	f.Add("a\xffb", int64(1), "s", "t", 0.0, false, []byte(``))
	f.Fuzz(func(t *testing.T, runID string, seq int64, sesID, typ string, at float64, term bool, payload []byte) {
		ev := run.Event{EventID: run.EventID(runID, seq), Seq: seq, RunID: runID, SessionID: sesID,
			Type: run.EventType(typ), CreatedAt: at, Terminal: term, Payload: payload}
		frame := appendFrame(nil, ev)
		if !bytes.HasSuffix(frame, []byte("\n\n")) || bytes.Count(frame, []byte("\n")) != 4 || bytes.ContainsRune(frame, '\r') {
			t.Fatalf("frame is not one SSE event: %q", frame)
		}
		data := frame[bytes.Index(frame, []byte("\ndata: "))+7 : len(frame)-2]
		var got map[string]any
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("data is not JSON: %q: %v", data, err)
		}
		want := ev
		if !json.Valid(payload) {
			want.Payload = json.RawMessage("null")
		}
		if at != at || at > 1.7e308 || at < -1.7e308 {
			return // NaN/Inf: encoding/json refuses them; never stored
		}
		b, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		var exp map[string]any
		if err := json.Unmarshal(b, &exp); err != nil {
			t.Fatal(err)
		}
		gb, _ := json.Marshal(got)
		eb, _ := json.Marshal(exp)
		if !bytes.Equal(gb, eb) {
			t.Fatalf("envelope differs:\n got %s\nwant %s", gb, eb)
		}
	})
}

func BenchmarkAppendFrame(b *testing.B) {
	ev := run.Event{EventID: "run_abc:42", Seq: 42, RunID: "run_abc", SessionID: "ses_1", Type: run.EventTokenDelta,
		CreatedAt: 1778750000.123, Payload: json.RawMessage(`{"text":"0123456789abcdef0123456789abcdef"}`)}
	var buf []byte
	for b.Loop() {
		buf = appendFrame(buf[:0], ev)
	}
}
