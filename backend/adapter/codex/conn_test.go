package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

type rpcIn struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// startFake runs a scripted app-server: it answers the handshake and hands
// every later line to script.
func startFake(t *testing.T, script func(in rpcIn, say func(format string, args ...any))) *conn {
	t.Helper()
	p := agenttest.NewPipeProc(t)
	say := func(format string, args ...any) { p.Say(fmt.Sprintf(format, args...)) }
	agenttest.ServeJSON(t, p, func(in rpcIn) {
		switch in.Method {
		case "initialize":
			say(`{"id":%s,"result":{}}`, in.ID)
		case "initialized":
		case "thread/start":
			say(`{"id":%s,"result":{"thread":{"id":"th1"},"model":"gpt-5.5"}}`, in.ID)
		case "model/list":
			say(`{"id":%s,"result":{"data":[{"id":"gpt-5.5","model":"gpt-5.5","displayName":"GPT-5.5","description":"Workhorse","hidden":false},{"id":"old","model":"old","hidden":true}],"nextCursor":null}}`, in.ID)
		default:
			script(in, say)
		}
	})
	c := newConn(p, "/work", io.Discard)
	go c.read()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.open(ctx, adapter.StartRequest{Workspace: "/work"}); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestConnApprovalAndUsage(t *testing.T) {
	var decision string
	c := startFake(t, func(in rpcIn, say func(string, ...any)) {
		switch {
		case in.Method == "turn/start":
			say(`{"id":%s,"result":{"turn":{"id":"tu1"}}}`, in.ID)
			say(`{"method":"item/started","params":{"item":{"type":"commandExecution","id":"c1","command":"ls","status":"inProgress"}}}`)
			say(`{"id":"srv-1","method":"item/commandExecution/requestApproval","params":{"itemId":"c1","command":"ls","availableDecisions":["accept","cancel"]}}`)
		case string(in.ID) == `"srv-1"`:
			var r struct {
				Decision string `json:"decision"`
			}
			_ = json.Unmarshal(in.Result, &r)
			decision = r.Decision
			say(`{"method":"item/completed","params":{"item":{"type":"commandExecution","id":"c1","command":"ls","status":"declined"}}}`)
			say(`{"method":"thread/tokenUsage/updated","params":{"tokenUsage":{"total":{"inputTokens":7,"outputTokens":3}}}}`)
			say(`{"method":"turn/completed","params":{"turn":{"id":"tu1","status":"completed"}}}`)
		}
	})
	rec := agenttest.NewRecorder()
	rec.OnEvent = func(ev agenttest.Event) {
		a, ok := ev.Payload.(run.ApprovalRequested)
		if !ok {
			return
		}
		go func() {
			if err := c.RespondApproval(context.Background(), a.ApprovalID, DecisionAcceptForSession); !errors.Is(err, adapter.ErrInvalidAnswer) {
				t.Errorf("an option not offered: %v", err)
			}
			if err := c.RespondApproval(context.Background(), a.ApprovalID, DecisionDecline); err != nil {
				t.Errorf("decline: %v", err)
			}
			if err := c.RespondApproval(context.Background(), a.ApprovalID, DecisionDecline); !errors.Is(err, adapter.ErrNotPending) {
				t.Errorf("second answer: %v", err)
			}
		}()
	}
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "hi"}, rec)
	if res.Err != nil || res.Usage == nil || res.Usage.InputTokens != 7 {
		t.Fatalf("result %+v", res)
	}
	if res.Usage.Model != "gpt-5.5" { // thread/start's answer names it
		t.Errorf("usage model %q", res.Usage.Model)
	}
	if decision != DecisionDecline {
		t.Fatalf("decision sent %q", decision)
	}
	if d := rec.OfType(run.EventToolDone); len(d) != 1 || d[0].(run.ToolDone).Status != "denied" {
		t.Fatalf("tool.done %+v", d)
	}
	if c.NativeSessionID() != "th1" {
		t.Fatalf("thread %q", c.NativeSessionID())
	}
}

func TestConnCancelInterruptsTheTurn(t *testing.T) {
	c := startFake(t, func(in rpcIn, say func(string, ...any)) {
		switch in.Method {
		case "turn/start":
			say(`{"id":%s,"result":{"turn":{"id":"tu9"}}}`, in.ID)
			say(`{"method":"item/agentMessage/delta","params":{"itemId":"m","delta":"tick "}}`)
		case "turn/interrupt":
			var p struct{ TurnID string }
			_ = json.Unmarshal(in.Params, &p)
			if p.TurnID != "tu9" {
				t.Errorf("interrupt for turn %q", p.TurnID)
			}
			say(`{"id":%s,"result":{}}`, in.ID)
			say(`{"method":"turn/completed","params":{"turn":{"id":%q,"status":"interrupted"}}}`, p.TurnID)
		}
	})
	rec := agenttest.NewRecorder()
	rec.OnEvent = func(ev agenttest.Event) {
		if ev.Type == run.EventTokenDelta {
			go func() { _ = c.Cancel(context.Background()) }()
		}
	}
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "slow"}, rec)
	if !res.Cancelled || res.Err != nil || res.StopReason != "cancelled" {
		t.Fatalf("result %+v", res)
	}
}

// The models model/list answered at start reach the picker with the first
// turn, hidden presets left out; later turns do not repeat them.
func TestConnReportsModelsOnTheFirstTurn(t *testing.T) {
	c := startFake(t, func(in rpcIn, say func(string, ...any)) {
		if in.Method == "turn/start" {
			say(`{"id":%s,"result":{"turn":{"id":"tu1"}}}`, in.ID)
			say(`{"method":"turn/completed","params":{"turn":{"id":"tu1","status":"completed"}}}`)
		}
	})
	for i, want := range []int{1, 0} {
		rec := agenttest.NewRecorder()
		if res := c.Turn(context.Background(), adapter.TurnRequest{Message: "hi"}, rec); res.Err != nil {
			t.Fatal(res.Err)
		}
		got := rec.OfType(run.EventModelUpdated)
		if len(got) != want {
			t.Fatalf("turn %d: %d model.updated", i, len(got))
		}
		if want == 1 {
			mu := got[0].(run.ModelUpdated)
			if mu.Model != "gpt-5.5" || len(mu.Available) != 1 || mu.Available[0] != (run.ModelOption{ID: "gpt-5.5", Name: "GPT-5.5", Description: "Workhorse"}) {
				t.Fatalf("%+v", mu)
			}
		}
	}
}
