package cli

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Terminal escapes from an agent — in its text (even split across
// deltas), tool titles, approval commands, errors — are shown, not obeyed.
func TestRendererDefusesTerminalEscapes(t *testing.T) {
	ev := func(seq int64, typ run.EventType, p any) run.Event {
		b, _ := json.Marshal(p)
		return run.Event{RunID: "run_1", Seq: seq, Type: typ, Payload: b, Terminal: typ == run.EventDone}
	}
	attacks := []struct{ name, text, want string }{
		{"window title (OSC 0)", "\x1b]0;pwned\x07ok", "^[]0;pwned^Gok"},
		{"clipboard write (OSC 52)", "\x1b]52;c;Y3VybCBldmlsfHNo\x07", "^[]52;c;Y3VybCBldmlsfHNo^G"},
		{"spoofed hyperlink (OSC 8)", "\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\", "^[]8;;https://evil.example^[\\docs^[]8;;^[\\"},
		{"line overwrite", "rm -rf ~\r\x1b[2Kls", "rm -rf ~^M^[[2Kls"},
		{"backspaces", "safe\b\b\b\bevil", "safe^H^H^H^Hevil"},
		{"8-bit CSI", "a\u009b2Jb", "a<U+009B>2Jb"},
		{"bidi override", "file \u202egnp.exe", "file <U+202E>gnp.exe"},
	}
	// Anything a terminal would act on: C0 but \n and \t, DEL, C1, bidi.
	active := regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]")
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			var events []run.Event
			// The text streamed one byte at a time: sequences split.
			for i := 0; i < len(a.text); {
				n := 1
				for n < len(a.text)-i && !utf8Start(a.text[i+n]) {
					n++
				}
				events = append(events, ev(int64(len(events)+1), run.EventTokenDelta, run.TextDelta{Text: a.text[i : i+n]}))
				i += n
			}
			events = append(events,
				ev(100, run.EventToolStarted, run.ToolStarted{ToolCallID: "t", Name: "bash", Title: a.text}),
				ev(101, run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "a", Title: a.text, Command: a.text}),
				ev(102, run.EventError, run.ErrorInfo{Message: a.text}),
				ev(103, run.EventDone, run.Done{Status: run.StatusFailed, Error: a.text}),
			)
			var out, errOut bytes.Buffer
			r := &renderer{out: &out, err: &errOut, runID: "run_1"}
			for _, e := range events {
				if err := r.event(e); err != nil {
					t.Fatal(err)
				}
			}
			r.summary()
			all := out.String() + errOut.String()
			if loc := active.FindStringIndex(all); loc != nil {
				t.Fatalf("a control reached the terminal at %d: %q", loc[0], all)
			}
			if n := strings.Count(all, a.want); n != 6 {
				t.Fatalf("%q shown %d times, want 6 (text, tool, approval title and command, error, summary):\n%q", a.want, n, all)
			}
		})
	}
}

func utf8Start(b byte) bool { return b&0xc0 != 0x80 }

func TestTermSafeLeavesTextAlone(t *testing.T) {
	for _, s := range []string{"plain", "tabs\tand\nnewlines", "émoji 🎉 العربية 日本語", ""} {
		if got := termSafe(s); got != s {
			t.Errorf("%q → %q", s, got)
		}
	}
}

// A session named after the message by `ask` does not carry its secret.
func TestTitleMasksSecrets(t *testing.T) {
	key := "sk-ant-" + strings.Repeat("Zq9_", 8)
	got := title("deploy with " + key + " please, and then a long tail that gets cut off here")
	if strings.Contains(got, key[7:15]) || !strings.HasPrefix(got, "deploy with sk-ant-[REDACTED]") {
		t.Fatalf("title %q", got)
	}
}
