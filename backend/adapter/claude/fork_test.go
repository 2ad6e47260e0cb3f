package claude

import (
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The command line of a session's start: a resume, a native fork (at a
// message, or of the whole session), or a new session.
func TestArgsForkNatively(t *testing.T) {
	for _, c := range []struct {
		name   string
		req    adapter.StartRequest
		resume bool
		want   string
	}{
		{"new", adapter.StartRequest{}, false, "--session-id new"},
		{"resume", adapter.StartRequest{NativeSessionID: "old", Fork: &run.NativeFork{From: "src", At: "a1"}}, true, "--resume new"},
		{"fork at a message", adapter.StartRequest{Fork: &run.NativeFork{From: "src", Turns: 1, At: "a1"}}, false,
			"--resume src --fork-session --session-id new --resume-session-at a1"},
		{"fork of the whole session", adapter.StartRequest{Fork: &run.NativeFork{From: "src", Turns: 2, All: true}}, false,
			"--resume src --fork-session --session-id new"},
		{"no fork point and not the whole: a new session", adapter.StartRequest{Fork: &run.NativeFork{From: "src", Turns: 1}}, false,
			"--session-id new"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(Args(c.req, "new", c.resume), " ")
			if !strings.Contains(got, c.want) || (c.want == "--session-id new" && strings.Contains(got, "--resume")) {
				t.Fatalf("args %q, want %q", got, c.want)
			}
		})
	}
}
