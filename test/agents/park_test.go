package agents

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
)

// parkFirstMsg is the turn the resumed run must remember.
const parkFirstMsg = "[scenario:text] remember this first turn"

// TestRealClaudeParksAndResumes: a run of the real Claude Code CLI, through
// the service, the supervisor and real shims, whose model server answers
// 429 with a reset a couple of seconds ahead, parks (with resumes_at) and,
// at the reset, resumes by itself on a new shim, continuing the same
// conversation, and completes; the journal says when it parked, when it
// resumed and how many attempts (docs/ARCHITECTURE.md §Usage, parked
// runs). It waits on the run's events (Service.Follow), not on a clock.
func TestRealClaudeParksAndResumes(t *testing.T) {
	e := newEnv(t, claudeCase.agent, claudeCase.cfg(t))
	first := e.runTurn(parkFirstMsg)
	if j := e.journal(first.RunID); j.done.Status != run.StatusCompleted {
		t.Fatalf("first run done %+v; events %v", j.done, j.types())
	}
	native := e.nativeSession()

	// The limit starts at the run's first model call, however long the
	// CLI takes to start, and lasts until a whole second ≥ 2 s after it.
	e.srv.RateLimitNextFor(2 * time.Second)
	var statuses []string
	var parked run.StatusChanged
	var parkedAt float64
	second := e.runTurn(recallMsg, func(ev run.Event) {
		if ev.Type != run.EventStatus {
			return
		}
		var st run.StatusChanged
		decode(t, ev, &st)
		statuses = append(statuses, string(st.Status))
		if st.Status == run.StatusParked && parked.Status == "" {
			parked, parkedAt = st, ev.CreatedAt
			// Seen live, while the run waits: the run row says parked.
			if r, err := e.st.Journal.GetRun(context.Background(), ev.RunID); err != nil || r.Status != run.StatusParked || r.ResumesAt == "" {
				t.Errorf("run row while parked: %+v %v", r, err)
			}
		}
	})
	j := e.journal(second.RunID)
	if parked.Status == "" {
		t.Fatalf("the run never parked: statuses %v, done %+v", statuses, j.done)
	}
	resumesAt, err := time.Parse(time.RFC3339, parked.ResumesAt)
	if err != nil || parked.Attempt != 1 || !strings.Contains(parked.Detail, "Waiting for quota") {
		t.Fatalf("parked %+v (%v)", parked, err)
	}
	if wait := resumesAt.Sub(time.Unix(0, int64(parkedAt*1e9))); wait <= 0 || wait > 5*time.Second {
		t.Fatalf("parked at %v to resume at %v: not the reset the server named", parkedAt, resumesAt)
	}

	// Resumed by itself at the reset, on a new shim: run.started again, the
	// person's message recorded once, "resumed after the rate limit
	// (attempt 2)": the second try.
	started := j.ofType(run.EventRunStarted)
	if len(started) != 2 {
		t.Fatalf("%d run.started, want the first try and the resumed one: %v", len(started), j.types())
	}
	resumedAt := time.Unix(0, int64(started[1].CreatedAt*1e9))
	if resumedAt.Before(resumesAt) {
		t.Fatalf("resumed at %v, before the reset %v", resumedAt, resumesAt)
	}
	if n := len(j.ofType(run.EventMessageUser)); n != 1 {
		t.Errorf("the message is recorded %d times, want once", n)
	}
	said := false
	for _, ev := range j.ofType(run.EventStatus) {
		var st run.StatusChanged
		decode(t, ev, &st)
		said = said || (st.Status == run.StatusRunning && st.Detail == "resumed after the rate limit (attempt 2)" && ev.Seq > started[1].Seq)
	}
	if !said {
		t.Errorf("no \"resumed after the rate limit\" after the second run.started: statuses %v", statuses)
	}

	// Completed, continuing the same conversation.
	if j.done.Status != run.StatusCompleted {
		t.Fatalf("done %+v; statuses %v", j.done, statuses)
	}
	if got := strings.TrimSpace(j.textAfter(started[1].Seq)); !strings.Contains(got, "The first was: "+parkFirstMsg) {
		t.Fatalf("the resumed run did not continue the conversation: %q", got)
	}
	if !conversationHas(e.srv.ModelRequests(), "recall", fakemodel.RoleUser, parkFirstMsg) {
		t.Fatal("the model's request after the reset did not carry the first turn")
	}
	if got := e.nativeSession(); got != native {
		t.Fatalf("native session %q → %q: not the same conversation", native, got)
	}
	if b1, b2 := e.bootstrap(first.RunID), e.bootstrap(second.RunID); b1.Pid == b2.Pid {
		t.Fatalf("the resumed run was played by the first run's shim (pid %d)", b1.Pid)
	}

	// The run row: ended, attempts kept, no reset left.
	r, err := e.st.Journal.GetRun(context.Background(), second.RunID)
	if err != nil || r.Status != run.StatusCompleted || r.ParkAttempts != 1 || r.ResumesAt != "" {
		t.Fatalf("run row %+v %v", r, err)
	}
	t.Logf("parked at %s, resumes at %s, resumed at %s, attempts %d, statuses %v",
		time.Unix(0, int64(parkedAt*1e9)).UTC().Format(time.RFC3339Nano), parked.ResumesAt,
		resumedAt.UTC().Format(time.RFC3339Nano), r.ParkAttempts, statuses)
}
