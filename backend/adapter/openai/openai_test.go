package openai

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

func start(t *testing.T, srv *fakemodel.Server) adapter.Conn {
	t.Helper()
	c, err := New().Start(context.Background(), adapter.StartRequest{Config: adapter.Config{BaseURL: srv.URL, APIKey: "k"}}, adapter.Host{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestStreamsTextAndReasoning(t *testing.T) {
	srv := fakemodel.Start(t)
	c := start(t, srv)
	rec := agenttest.NewRecorder()
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "[scenario:reasoning] hi"}, rec)
	if res.Err != nil || res.StopReason != "stop" || res.Usage == nil || res.Usage.OutputTokens != 5 {
		t.Fatalf("result %+v", res)
	}
	if rec.Text() != "Here is a short, considered answer." || len(rec.OfType(run.EventTokenDelta)) < 3 {
		t.Fatalf("text %q in %d deltas", rec.Text(), len(rec.OfType(run.EventTokenDelta)))
	}
	types := rec.Types()
	if types[0] != run.EventReasoningDelta || len(rec.OfType(run.EventReasoningDone)) != 1 {
		t.Fatalf("event order %v", types)
	}
	if c.Pid() != 0 {
		t.Fatal("an HTTP agent has no process")
	}
	if got := srv.ModelRequests()[0].Header.Get("Authorization"); got != "Bearer k" {
		t.Fatalf("auth header %q", got)
	}
}

func TestKeepsHistory(t *testing.T) {
	srv := fakemodel.Start(t)
	c := start(t, srv)
	if res := c.Turn(context.Background(), adapter.TurnRequest{Message: "[scenario:text] one"}, agenttest.NewRecorder()); res.Err != nil {
		t.Fatal(res.Err)
	}
	rec := agenttest.NewRecorder()
	if res := c.Turn(context.Background(), adapter.TurnRequest{Message: "[scenario:recall] two"}, rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	if !strings.Contains(rec.Text(), "seen 2 marked user messages. The first was: [scenario:text] one") {
		t.Fatalf("history lost: %q", rec.Text())
	}
	msgs := srv.ModelRequests()[1].Conversation.Messages
	if len(msgs) != 3 || msgs[1].Role != "assistant" || !strings.HasPrefix(msgs[1].Text, "Hello from the fake model") {
		t.Fatalf("second request's messages %+v", msgs)
	}
}

func TestCancelAbortsTheRequest(t *testing.T) {
	srv := fakemodel.Start(t)
	c := start(t, srv)
	rec := agenttest.NewRecorder()
	once := make(chan struct{})
	rec.OnEvent = func(agenttest.Event) {
		select {
		case <-once:
		default:
			close(once)
			go func() { _ = c.Cancel(context.Background()) }()
		}
	}
	done := make(chan adapter.TurnResult, 1)
	go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: "[scenario:slow]"}, rec) }()
	select {
	case res := <-done:
		if !res.Cancelled || res.Err != nil {
			t.Fatalf("result %+v", res)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("cancel did not end the turn")
	}
	if err := c.Cancel(context.Background()); !errors.Is(err, adapter.ErrNotPending) {
		t.Fatalf("cancel with no turn: %v", err)
	}
}

func TestServerError(t *testing.T) {
	srv := fakemodel.Start(t)
	c := start(t, srv)
	res := c.Turn(context.Background(), adapter.TurnRequest{Message: "[scenario:error]"}, agenttest.NewRecorder())
	if res.Err == nil || !strings.Contains(res.Err.Error(), "scripted error") {
		t.Fatalf("want the server's message, got %v", res.Err)
	}
}

func TestHealth(t *testing.T) {
	srv := fakemodel.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), adapter.HealthTimeout)
	defer cancel()
	if h := New().Health(ctx, adapter.Config{BaseURL: srv.URL}); !h.OK || !h.Installed {
		t.Fatalf("health %+v", h)
	}
	_ = srv.Close()
	if h := New().Health(ctx, adapter.Config{BaseURL: srv.URL}); h.Installed || !strings.Contains(h.Message, "start Ollama") {
		t.Fatalf("health of a dead server %+v", h)
	}
}

func TestBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                          DefaultBaseURL,
		"http://h:1":                "http://h:1/v1",
		"http://h:1/":               "http://h:1/v1",
		"http://h:1/v1/":            "http://h:1/v1",
		"http://h/api/openai/v1":    "http://h/api/openai/v1",
		"https://openrouter.ai/api": "https://openrouter.ai/api",
	} {
		if got := BaseURL(adapter.Config{BaseURL: in}); got != want {
			t.Errorf("BaseURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseChunk(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"delta":{"content":"hi"},"finish_reason":null}]}`,
		`{"choices":[{"delta":{"reasoning_content":"hm"}}]}`,
		`{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2}}`,
		`{"error":{"message":"bad"}}`, `[]`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseChunk(b)
		if err != nil && (c.Content != "" || c.Error != "") {
			t.Fatal("content with an error")
		}
	})
}
