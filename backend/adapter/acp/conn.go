package acp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/attach"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// conn is one running ACP agent serving one session.
type conn struct {
	a     *Adapter
	proc  adapter.Proc
	ws    *workspace
	terms *terminals
	rpc   *rpc
	log   *slog.Logger
	// command is the command line the agent was started with (named when
	// it does not answer).
	command []string

	sessionID  string
	loadable   bool                      // agent advertised loadSession
	forked     bool                      // the session is a native fork (fork.go)
	promptCaps acpsdk.PromptCapabilities // what prompt content the agent takes
	models     bool                      // agent reported a model list: session/set_model may work
	// loadID is the id of the session/load request while its replayed
	// history streams in; the reader clears it when the response arrives,
	// so updates right after the load are not lost.
	loadID atomic.Int64
	// lastUpdate is when the latest session/update arrived (unix ns), to
	// see a replay that trails the load's answer go quiet.
	lastUpdate atomic.Int64
	closeOnce  sync.Once
	unknownRPC atomic.Int64 // notifications with methods we do not know

	mu      sync.Mutex
	turn    *turnState
	asks    map[string]*ask
	pending []Out // latest state updates from between turns, emitted with the next
	model   string
	// config is the agent's latest session settings (§Session config
	// options); a model selector among them is how SetModel switches.
	config []run.ConfigOption
}

var _ adapter.Conn = (*conn)(nil)

// turnState is the one turn in flight.
type turnState struct {
	emit   adapter.Emitter
	mu     sync.Mutex // orders emits from the reader and request goroutines
	m      *Mapper
	stop   chan struct{} // closed on cancel or when the turn ends
	once   sync.Once
	cancel atomic.Bool
	// sendMu makes "cancelled yet? else send the prompt" atomic with
	// respect to Cancel.
	sendMu sync.Mutex
}

func (t *turnState) end() { t.once.Do(func() { close(t.stop) }) }

// ask is a pending approval or clarify.
type ask struct {
	kind    string // "approval" or "clarify"
	turn    *turnState
	options []wireOption
	answer  chan string // buffered 1; receives the option id or answer
}

// killer is implemented by launchers' procs that can kill the process
// group (execlaunch.Proc does); Close uses it when the agent ignores EOF.
type killer interface{ Kill() error }

func newConn(a *Adapter, proc adapter.Proc, ws *workspace, env []string, host adapter.Host) *conn {
	logw := host.Log
	if logw == nil {
		logw = io.Discard
	}
	c := &conn{
		a: a, proc: proc, ws: ws,
		log:   slog.New(slog.NewTextHandler(logw, nil)).With("agent", a.name, "pid", proc.Pid()),
		asks:  map[string]*ask{},
		terms: &terminals{ws: ws, env: env, m: map[string]*terminal{}},
	}
	c.rpc = newRPC(proc.Stdout(), proc.Stdin(), c.log, c.onNotify, c.onRequest, func(id int64) {
		c.loadID.CompareAndSwap(id, 0)
	})
	c.rpc.onResult = c.onResult
	return c
}

// exitCode waits up to d for the agent to exit.
func (c *conn) exitCode(d time.Duration) (int, bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.proc.Exited():
		code, _ := c.proc.Wait()
		return code, true
	case <-t.C:
		return 0, false
	}
}

func (c *conn) NativeSessionID() string { return c.sessionID }
func (c *conn) Pid() int                { return c.proc.Pid() }
func (c *conn) Done() <-chan struct{}   { return c.proc.Exited() }

// Turn sends one prompt and blocks until the agent answers it or dies.
func (c *conn) Turn(ctx context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
	// Attachments are read before the turn is registered: an unreadable
	// file fails the turn in plain words and sends nothing.
	files, err := attach.Load(req.Attachments, true)
	if err != nil {
		return adapter.TurnResult{Err: err}
	}
	t := &turnState{emit: emit, m: NewMapper(), stop: make(chan struct{})}
	t.m.Workspace = c.ws.dir
	t.m.Terminal = c.terms.outputOf
	// Registering the turn is the busy check, so a Cancel that comes right
	// after Turn starts always finds it.
	c.mu.Lock()
	if c.turn != nil {
		c.mu.Unlock()
		return adapter.TurnResult{Err: adapter.ErrBusy}
	}
	c.turn = t
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.turn = nil
		c.mu.Unlock()
	}()
	select {
	case <-c.rpc.Done():
		return c.exitedResult(false)
	default:
	}
	if req.Model != "" && req.Model != c.currentModel() {
		if err := c.SetModel(ctx, req.Model); err != nil {
			c.log.Warn("acp: could not switch model for this turn", "model", req.Model, "err", err)
		}
	}
	c.applyChoices(ctx, req.Settings) // choices.go
	c.mu.Lock()
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	t.mu.Lock()
	c.emitAll(t, pending)
	t.mu.Unlock()

	var res promptResult
	t.sendMu.Lock()
	if t.cancel.Load() { // cancelled before the prompt went out: never send it
		t.sendMu.Unlock()
		return adapter.TurnResult{StopReason: string(acpsdk.StopReasonCancelled), Cancelled: true}
	}
	id, ch, err := c.rpc.begin("session/prompt", acpsdk.PromptRequest{
		SessionId: acpsdk.SessionId(c.sessionID), Prompt: promptBlocks(req.Message, files, c.promptCaps),
	}, nil)
	t.sendMu.Unlock()
	if err == nil {
		err = c.rpc.await(context.WithoutCancel(ctx), "session/prompt", id, ch, &res)
	}

	c.mu.Lock()
	c.turn = nil // updates from here on belong to no turn
	c.mu.Unlock()
	t.end() // answers any approval still waiting with "cancelled"
	cancelled := t.cancel.Load() || (err == nil && res.StopReason == string(acpsdk.StopReasonCancelled))
	t.mu.Lock()
	c.emitAll(t, t.m.Finish(cancelled))
	c.logStats(t.m)
	t.mu.Unlock()

	switch {
	case gone(err):
		return c.exitedResult(cancelled)
	case err != nil:
		return adapter.TurnResult{Cancelled: cancelled, Err: fmt.Errorf("acp: %s: %w", c.a.display, err)}
	}
	return adapter.TurnResult{StopReason: res.StopReason, Cancelled: cancelled, Usage: res.usage()}
}

// gone reports whether err means the agent's pipes are closed.
func gone(err error) bool { return errors.Is(err, errClosed) || errors.Is(err, errWrite) }

func (c *conn) exitedResult(cancelled bool) adapter.TurnResult {
	r := adapter.TurnResult{Cancelled: cancelled}
	if code, ok := c.exitCode(5 * time.Second); ok {
		r.ExitCode = &code
		r.Err = fmt.Errorf("%s exited with code %d: %w", c.a.display, code, adapter.ErrAgentExited)
	} else {
		r.Err = fmt.Errorf("%s closed its output: %w", c.a.display, adapter.ErrAgentExited)
	}
	return r
}

func (c *conn) logStats(m *Mapper) {
	mal, unk := c.rpc.malformed.Load(), c.unknownRPC.Load()
	if mal > 0 || unk > 0 || m.Malformed > 0 || len(m.Unknown) > 0 {
		c.log.Warn("acp: dropped frames", "malformed_lines", mal, "unknown_notifications", unk, "malformed_updates", m.Malformed, "unknown_kinds", m.UnknownKinds())
	}
}

// emitAll emits in order; the caller holds t.mu. An emitter failure is
// logged, not fatal: the agent keeps running and later events may land.
func (c *conn) emitAll(t *turnState, outs []Out) {
	for _, o := range outs {
		if err := t.emit.Emit(o.Type, o.Payload); err != nil {
			c.log.Error("acp: emitting", "type", o.Type, "err", err)
		}
	}
}

func (c *conn) currentTurn() *turnState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.turn
}

func (c *conn) currentModel() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.model
}

// onNotify runs on the reader goroutine, in wire order.
func (c *conn) onNotify(method string, params json.RawMessage) {
	if method != "session/update" {
		c.unknownRPC.Add(1)
		c.log.Debug("acp: ignored notification", "method", method)
		return
	}
	c.lastUpdate.Store(time.Now().UnixNano())
	var n struct {
		SessionID string          `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	}
	if err := json.Unmarshal(params, &n); err != nil || len(n.Update) == 0 {
		c.rpc.malformed.Add(1)
		return
	}
	c.followSettings(n.Update) // remembered even from a replay
	if c.loadID.Load() != 0 {
		return
	}
	if t := c.currentTurn(); t != nil {
		t.mu.Lock()
		c.emitAll(t, t.m.Update(n.Update))
		t.mu.Unlock()
		return
	}
	// Between turns (e.g. Gemini's commands list right after session/new):
	// keep state-like updates for the next turn, drop the rest.
	for _, o := range NewMapper().Update(n.Update) {
		switch o.Type {
		case run.EventCommandsUpdated, run.EventModeUpdated, run.EventModelUpdated, run.EventConfigUpdated, run.EventTitleUpdated, run.EventUsageUpdated:
			c.mu.Lock()
			c.keepPending(o)
			c.mu.Unlock()
		default:
			c.log.Debug("acp: dropped an update outside any turn", "type", o.Type)
		}
	}
}

// keepPending records a between-turns state update, replacing an older one
// of the same type (only the latest state matters) — except a new
// session's settings, which the journal remembers as the agent's defaults
// whatever is set after them (§Session config options). The caller holds
// c.mu.
func (c *conn) keepPending(o Out) {
	for i, p := range c.pending {
		if isDefaults(p) {
			continue
		}
		if p.Type == o.Type {
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			break
		}
	}
	c.pending = append(c.pending, o)
}

// isDefaults reports whether o is a new session's settings or models.
func isDefaults(o Out) bool {
	switch p := o.Payload.(type) {
	case run.ConfigUpdated:
		return p.Defaults
	case run.ModelUpdated:
		return p.Defaults
	}
	return false
}

// Cancel sends session/cancel and answers every pending prompt of the turn
// with "cancelled", as ACP requires of the client.
func (c *conn) Cancel(ctx context.Context) error {
	t := c.currentTurn()
	if t == nil {
		return nil
	}
	t.sendMu.Lock()
	t.cancel.Store(true)
	t.sendMu.Unlock()
	c.mu.Lock()
	for id, q := range c.asks {
		if q.turn == t {
			delete(c.asks, id)
		}
	}
	c.mu.Unlock()
	t.end()
	if err := c.rpc.notify("session/cancel", acpsdk.CancelNotification{SessionId: acpsdk.SessionId(c.sessionID)}); err != nil {
		return fmt.Errorf("acp: sending session/cancel: %w", err)
	}
	return nil
}

// RespondApproval answers a pending approval.requested.
func (c *conn) RespondApproval(_ context.Context, approvalID, optionID string) error {
	return c.respond("approval", approvalID, optionID)
}

// RespondClarify answers a pending clarify.requested.
func (c *conn) RespondClarify(_ context.Context, clarifyID, answer string) error {
	return c.respond("clarify", clarifyID, answer)
}

func (c *conn) respond(kind, id, answer string) error {
	c.mu.Lock()
	q, ok := c.asks[id]
	if !ok || q.kind != kind {
		c.mu.Unlock()
		return fmt.Errorf("%s %q: %w", kind, id, adapter.ErrNotPending)
	}
	if kind == "approval" {
		o, ok := pickOption(q.options, answer)
		if !ok {
			c.mu.Unlock()
			return fmt.Errorf("%q: %w", answer, adapter.ErrInvalidAnswer)
		}
		answer = o.OptionID
	}
	delete(c.asks, id)
	c.mu.Unlock()
	q.answer <- answer // buffered; never blocks
	return nil
}

// SetModel switches the session's model: through its model selector
// (session/set_config_option) where the agent reports one, else ACP
// session/set_model.
func (c *conn) SetModel(ctx context.Context, model string) error {
	if id := c.modelOption(); id != "" {
		if err := c.setConfigOption(ctx, id, model); err != nil {
			return err
		}
		c.mu.Lock()
		c.model = model
		c.mu.Unlock()
		return nil
	}
	if !c.models {
		return fmt.Errorf("acp: %s reported no models: %w", c.a.display, adapter.ErrUnsupported)
	}
	err := c.rpc.call(ctx, "session/set_model", acpsdk.UnstableSetSessionModelRequest{
		SessionId: acpsdk.SessionId(c.sessionID), ModelId: acpsdk.UnstableModelId(model),
	}, nil)
	var re *RPCError
	if errors.As(err, &re) && re.Code == codeMethodNotFound {
		return fmt.Errorf("acp: %s: %w", c.a.display, adapter.ErrUnsupported)
	}
	if err != nil {
		return fmt.Errorf("acp: set model %q: %w", model, err)
	}
	c.mu.Lock()
	c.model = model
	c.keepPending(Out{run.EventModelUpdated, run.ModelUpdated{Model: model}})
	c.mu.Unlock()
	return nil
}

// Close ends the agent: EOF on its stdin (ACP agents exit on it), then a
// kill of its process group if it lingers.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		if t := c.currentTurn(); t != nil {
			t.end()
		}
		_ = c.proc.Stdin().Close()
		if _, ok := c.exitCode(3 * time.Second); !ok {
			if k, ok := c.proc.(killer); ok {
				_ = k.Kill()
			}
			c.exitCode(5 * time.Second)
		}
		_ = c.proc.Stdout().Close()
		c.terms.closeAll()
		c.ws.Close()
	})
	return nil
}

func newID(prefix string) string {
	var b [9]byte
	_, _ = rand.Read(b[:])
	return prefix + "_" + hex.EncodeToString(b[:])
}
