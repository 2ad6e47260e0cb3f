package claude

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

func requestID(in map[string]any) string {
	return in["request_id"].(string)
}

func subtype(in map[string]any) string {
	r, _ := in["request"].(map[string]any)
	s, _ := r["subtype"].(string)
	return s
}

// startFake runs a conn against a scripted CLI that speaks Claude Code's
// stream-json: script gets every frame the adapter writes.
func startFake(t *testing.T, script func(in map[string]any, say func(string))) (*conn, *agenttest.PipeProc) {
	t.Helper()
	p := agenttest.NewPipeProc(t)
	agenttest.ServeJSON(t, p, func(in map[string]any) { script(in, p.Say) })
	c := newConn(p, "sid", "/work", io.Discard)
	go c.read()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.control(ctx, map[string]any{"subtype": "initialize"}); err != nil {
		t.Fatal(err)
	}
	return c, p
}

func TestConnApprovalRoundTrip(t *testing.T) {
	var mu sync.Mutex
	var answers []map[string]any
	c, _ := startFake(t, func(in map[string]any, say func(string)) {
		switch in["type"] {
		case "control_request":
			say(`{"type":"control_response","response":{"subtype":"success","request_id":"` + requestID(in) + `"}}`)
		case "user":
			say(`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}`)
			say(`{"type":"control_request","request_id":"perm1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t1"}}`)
		case "control_response":
			mu.Lock()
			answers = append(answers, in)
			mu.Unlock()
			say(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"denied","is_error":true}]}}`)
			say(`{"type":"result","subtype":"success","is_error":false,"stop_reason":"end_turn","session_id":"sid","usage":{"input_tokens":3,"output_tokens":2}}`)
		}
	})
	rec := agenttest.NewRecorder()
	rec.OnEvent = func(ev agenttest.Event) {
		a, ok := ev.Payload.(run.ApprovalRequested)
		if !ok {
			return
		}
		go func() {
			ctx := context.Background()
			if err := c.RespondApproval(ctx, "nope", OptionAllow); !errors.Is(err, adapter.ErrNotPending) {
				t.Errorf("unknown id: %v", err)
			}
			if err := c.RespondApproval(ctx, a.ApprovalID, "maybe"); !errors.Is(err, adapter.ErrInvalidAnswer) {
				t.Errorf("bad option: %v", err)
			}
			if err := c.RespondApproval(ctx, a.ApprovalID, OptionDeny); err != nil {
				t.Errorf("deny: %v", err)
			}
			if err := c.RespondApproval(ctx, a.ApprovalID, OptionDeny); !errors.Is(err, adapter.ErrNotPending) {
				t.Errorf("second answer: %v", err)
			}
		}()
	}
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "hi"}, rec)
	if res.Err != nil || res.StopReason != "end_turn" || res.Usage.OutputTokens != 2 {
		t.Fatalf("result %+v", res)
	}
	done := rec.OfType(run.EventToolDone)
	if len(done) != 1 || done[0].(run.ToolDone).Status != "denied" {
		t.Fatalf("tool.done %+v", done)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(answers) != 1 || !strings.Contains(mustJSON(answers[0]), `"behavior":"deny"`) {
		t.Fatalf("answers sent %v", answers)
	}
}

func TestConnBusyAndExit(t *testing.T) {
	release := make(chan struct{})
	c, p := startFake(t, func(in map[string]any, say func(string)) {
		if in["type"] == "control_request" && subtype(in) == "initialize" {
			say(`{"type":"control_response","response":{"subtype":"success","request_id":"` + requestID(in) + `"}}`)
		}
		if in["type"] == "user" {
			<-release
		}
	})
	res := make(chan adapter.TurnResult, 1)
	go func() {
		res <- c.Turn(context.Background(), adapter.TurnRequest{Message: "a"}, agenttest.NewRecorder())
	}()
	// Wait until the first turn is registered, then a second one is refused.
	for {
		c.mu.Lock()
		busy := c.turn != nil
		c.mu.Unlock()
		if busy {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if r := c.Turn(context.Background(), adapter.TurnRequest{Message: "b"}, agenttest.NewRecorder()); !errors.Is(r.Err, adapter.ErrBusy) {
		t.Fatalf("second turn: %+v", r)
	}
	close(release)
	p.Exit() // the agent dies mid-turn
	if r := <-res; !errors.Is(r.Err, adapter.ErrAgentExited) {
		t.Fatalf("turn after exit: %+v", r)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
