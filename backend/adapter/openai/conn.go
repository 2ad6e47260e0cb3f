package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
	"github.com/hermesdesk/hermesdesk/backend/adapter/internal/procio"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// conn is a conversation with one server; the history lives here because
// the chat API is stateless.
type conn struct {
	client *http.Client
	base   string
	key    string
	log    io.Writer
	done   chan struct{}

	mu        sync.Mutex
	model     string
	history   []message
	cancel    context.CancelFunc // aborts the in-flight request
	busy      bool
	cancelled bool
	closeOnce sync.Once
}

var _ adapter.Conn = (*conn)(nil)

func (c *conn) NativeSessionID() string { return "" }
func (c *conn) Pid() int                { return 0 }
func (c *conn) Done() <-chan struct{}   { return c.done }

// Turn implements adapter.Conn: one streamed chat completion over the whole
// history.
func (c *conn) Turn(ctx context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
	// The request must outlive ctx (cancelling ctx does not cancel a turn);
	// only Cancel and Close abort it.
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	// A plain chat server takes text only: attachments are named by path.
	text, err := attach.MentionPaths(req.Message, req.Attachments)
	if err != nil {
		return adapter.TurnResult{Err: err}
	}
	c.mu.Lock()
	if c.busy {
		c.mu.Unlock()
		return adapter.TurnResult{Err: adapter.ErrBusy}
	}
	select {
	case <-c.done:
		c.mu.Unlock()
		return adapter.TurnResult{Err: adapter.ErrAgentExited}
	default:
	}
	c.busy, c.cancelled, c.cancel = true, false, cancel
	model := c.model
	if req.Model != "" {
		model = req.Model
	}
	msgs := append(append([]message(nil), c.history...), message{Role: "user", Content: text})
	c.mu.Unlock()

	text, res := c.stream(rctx, model, msgs, emit)

	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy, c.cancel = false, nil
	if c.cancelled {
		res = adapter.TurnResult{Cancelled: true, StopReason: "cancelled", Usage: res.Usage}
	}
	if res.Err == nil {
		// Keep what was said, even when cut short, so the next turn has it.
		c.history = append(msgs, message{Role: "assistant", Content: text})
	}
	return res
}

func (c *conn) stream(ctx context.Context, model string, msgs []message, emit adapter.Emitter) (string, adapter.TurnResult) {
	body, _ := json.Marshal(map[string]any{"model": model, "messages": msgs, "stream": true,
		"stream_options": map[string]any{"include_usage": true}})
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", adapter.TurnResult{Err: fmt.Errorf("openai: %w", err)}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if c.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.client.Do(hreq)
	if err != nil {
		return "", adapter.TurnResult{Err: fmt.Errorf("openai: request: %w", err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", adapter.TurnResult{Err: fmt.Errorf("openai: %s: %s%s", resp.Status, errorMessage(resp.Body), resetWords(resp.StatusCode, resp.Header))}
	}
	var text, reasoning strings.Builder
	res := adapter.TurnResult{}
	lr := procio.NewLineReader(resp.Body)
	for {
		line, err := lr.Next()
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, io.EOF) {
				res.Err = fmt.Errorf("openai: stream: %w", err)
			}
			break
		}
		data, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue // comments, event names, blank separators
		}
		data = bytes.TrimSpace(data)
		if string(data) == "[DONE]" {
			break
		}
		ch, err := ParseChunk(data)
		if err != nil {
			procio.Logf(c.log, "openai", "%v", err)
			continue
		}
		if ch.Error != "" {
			res.Err = fmt.Errorf("openai: %s", ch.Error)
			break
		}
		if ch.Reasoning != "" {
			reasoning.WriteString(ch.Reasoning)
			_ = emit.Emit(run.EventReasoningDelta, run.TextDelta{Text: ch.Reasoning})
		}
		if ch.Content != "" {
			if reasoning.Len() > 0 && text.Len() == 0 {
				_ = emit.Emit(run.EventReasoningDone, run.TextDone{Text: reasoning.String()})
			}
			text.WriteString(ch.Content)
			_ = emit.Emit(run.EventTokenDelta, run.TextDelta{Text: ch.Content})
		}
		if ch.FinishReason != "" {
			res.StopReason = ch.FinishReason
		}
		if u := ch.Usage; u != nil {
			res.Usage = &run.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
		}
	}
	return text.String(), res
}

// errorMessage pulls a server's error message out of an error body.
func errorMessage(r io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(r, 64<<10))
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil {
			return s
		}
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// Cancel implements adapter.Conn by aborting the HTTP request.
func (c *conn) Cancel(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.busy {
		return adapter.ErrNotPending
	}
	c.cancelled = true
	c.cancel()
	return nil
}

func (c *conn) RespondApproval(context.Context, string, string) error { return adapter.ErrUnsupported }
func (c *conn) RespondClarify(context.Context, string, string) error  { return adapter.ErrUnsupported }

// SetModel implements adapter.Conn; the next turn uses model.
func (c *conn) SetModel(_ context.Context, model string) error {
	c.mu.Lock()
	c.model = model
	c.mu.Unlock()
	return nil
}

// Close implements adapter.Conn: aborts a running request.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		if c.cancel != nil {
			c.cancel()
		}
		c.mu.Unlock()
		close(c.done)
	})
	return nil
}
