package shim

import (
	"context"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

func TestOutputCap(t *testing.T) {
	type ev struct {
		t    run.EventType
		text string
	}
	tests := []struct {
		name   string
		limit  int64
		in     []ev
		stored string // answer text stored while streaming
		cut    bool
		tail   string
		notice string // in the closing notice
	}{
		{"under the cap", 30, []ev{{run.EventTokenDelta, "hello"}, {run.EventTokenDelta, " world"}}, "hello world", false, "", ""},
		{"head and tail kept", 20, []ev{{run.EventTokenDelta, "0123456789"}, {run.EventTokenDelta, "abcdefghij"}, {run.EventTokenDelta, "ABCDEFGHIJ"}, {run.EventTokenDelta, "klm"}},
			"0123456789", true, "DEFGHIJklm", "13 bytes in the middle"},
		{"split inside a delta", 20, []ev{{run.EventTokenDelta, "01234567"}, {run.EventTokenDelta, "89abcdef"}}, "0123456789", true, "abcdef", "0 bytes"},
		{"no character split", 16, []ev{{run.EventTokenDelta, "abcé"}, {run.EventTokenDelta, "éééé"}}, "abcéé", true, "ééé", "0 bytes"},
		{"reasoning and tool output count, only the answer keeps a tail", 20,
			[]ev{{run.EventReasoningDelta, "thinking!!"}, {run.EventToolUpdated, "tool output"}, {run.EventTokenDelta, "answer"}}, "", true, "answer", "11 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newOutputCap(tc.limit)
			var stored strings.Builder
			for _, e := range tc.in {
				var p any = run.TextDelta{Text: e.text}
				if e.t == run.EventToolUpdated {
					p = run.ToolUpdated{ToolCallID: "t1", Output: e.text}
				}
				out := c.admit(e.t, p)
				if out == nil || e.t != run.EventTokenDelta {
					continue
				}
				stored.WriteString(out.(run.TextDelta).Text)
			}
			if stored.String() != tc.stored {
				t.Fatalf("stored %q, want %q", stored.String(), tc.stored)
			}
			end := c.end()
			if !tc.cut {
				if end != nil {
					t.Fatalf("nothing cut, yet closing events %+v", end)
				}
				return
			}
			if len(end) == 0 || end[0].t != run.EventNotice || !strings.Contains(end[0].p.(run.Notice).Message, tc.notice) {
				t.Fatalf("closing events %+v, want a notice saying %q", end, tc.notice)
			}
			tail := ""
			if len(end) > 1 {
				tail = end[1].p.(run.TextDelta).Text
			}
			if tail != tc.tail {
				t.Fatalf("tail %q, want %q", tail, tc.tail)
			}
		})
	}
}

// A huge answer is stored capped, head and tail, with the cut said, and a
// large run checkpoints the WAL when it ends.
func TestHugeAnswerIsCappedAndCheckpointed(t *testing.T) {
	chunk := strings.Repeat("x", 1000)
	c := &fakeConn{turn: func(_ context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
		emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "BEGIN"})
		for range 6000 { // 6 MB
			emit.Emit(run.EventTokenDelta, run.TextDelta{Text: chunk})
		}
		emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "END"})
		return adapter.TurnResult{}
	}}
	h := startHarnessWith(t, connAdapter(adapter.Capabilities{}, c), nil, func(s *control.Spec) { s.MaxOutputBytes = 2 << 20 })
	h.wait()
	if d := h.done(); d.Status != run.StatusCompleted {
		t.Fatalf("done %+v", d)
	}
	var answer strings.Builder
	notices := 0
	for _, ev := range h.j.all() {
		switch ev.Type {
		case run.EventTokenDelta:
			d, _ := decode[run.TextDelta](ev.Payload)
			answer.WriteString(d.Text)
		case run.EventNotice:
			notices++
		}
	}
	a := answer.String()
	if len(a) != 2<<20 || !strings.HasPrefix(a, "BEGIN") || !strings.HasSuffix(a, "END") || notices != 1 {
		t.Fatalf("stored %d bytes (want %d), begins %q, ends %q, %d notices", len(a), 2<<20, a[:5], a[len(a)-3:], notices)
	}
	if n := h.j.checkpoints.Load(); n != 1 {
		t.Fatalf("%d checkpoints after a large run, want 1", n)
	}
}
