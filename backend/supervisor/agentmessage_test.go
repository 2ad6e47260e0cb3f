package supervisor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A forked session's first message: the agent is given AgentMessage (the
// conversation handed over ahead of the message) while the transcript
// keeps the message as typed. The demo agent remembers what it was given
// and says it back on /scenario recall (docs/ARCHITECTURE.md §Checkpoints).
func TestTheAgentIsGivenTheAgentMessage(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, err := e.sup.Start(ctx, run.StartRequest{SessionID: e.session.ID, Message: "hello",
		AgentMessage: "HANDED OVER: earlier talk\n\nhello", ClientRequestID: fmt.Sprintf("c-%d", time.Now().UnixNano())})
	if err != nil {
		t.Fatal(err)
	}
	if r := e.waitTerminal(res.RunID); r.Status != run.StatusCompleted {
		t.Fatalf("first run: %s", r.Status)
	}
	second := e.start(e.session.ID, "/scenario recall")
	if r := e.waitTerminal(second.RunID); r.Status != run.StatusCompleted {
		t.Fatalf("recall run: %s", r.Status)
	}
	msgs, err := e.store.Messages(ctx, e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if msgs[0].Role != run.RoleUser || msgs[0].Content != "hello" {
		t.Errorf("the transcript's first message: %+v", msgs[0])
	}
	last := msgs[len(msgs)-1].Content
	if !strings.Contains(last, `You said: "HANDED OVER: earlier talk`) {
		t.Errorf("the agent was not given the handover; it recalls:\n%s", last)
	}
}
