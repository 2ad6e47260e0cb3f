package shim

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/park"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// emitter is what the adapter writes normalized events into. It records
// pending approvals and clarify prompts before their events commit, so a
// client that sees the event can always answer it.
type emitter struct{ r *runner }

var _ adapter.Emitter = emitter{}

func (e emitter) Emit(t run.EventType, payload any) error {
	r := e.r
	r.mu.Lock()
	if r.ended {
		r.mu.Unlock()
		return ErrRunTerminal
	}
	if jerr := r.journalErr; jerr != nil {
		r.mu.Unlock()
		return jerr
	}
	switch t {
	case run.EventApprovalRequest:
		if a, ok := decode[run.ApprovalRequested](payload); ok && a.ApprovalID != "" {
			if _, seen := r.approvals[a.ApprovalID]; !seen {
				r.approvalOrder = append(r.approvalOrder, a.ApprovalID)
			}
			r.approvals[a.ApprovalID] = &pending{options: a.Options}
		}
	case run.EventClarifyRequest:
		if c, ok := decode[run.ClarifyRequested](payload); ok && c.ClarifyID != "" {
			r.clarifies[c.ClarifyID] = &pending{}
		}
	case run.EventUsageUpdated:
		// What the agent says of its rate limit this turn — a reached
		// window (Claude Code's rate_limit_event, Codex's windows, with
		// the reset) or an error's words — is kept for the one park
		// decision at the turn's end (park.Decide; docs/ARCHITECTURE.md
		// §Usage, parked runs).
		if u, ok := decode[run.Usage](payload); ok {
			r.limit = r.limit.And(park.FromEvent(u, time.Now()))
		}
	case run.EventError:
		if e, ok := decode[run.ErrorInfo](payload); ok {
			r.limit = r.limit.And(park.FromEvent(e, time.Now()))
		}
	}
	r.moveLocked(t, payload)
	if r.outCap != nil {
		if payload = r.outCap.admit(t, payload); payload == nil {
			r.mu.Unlock()
			return nil // cut: the notice at the end says how much
		}
	}
	r.mu.Unlock()
	if _, err := r.w.Append(t, payload); err != nil {
		if !isRunTerminal(err) {
			r.journalFailed(err)
		}
		return err
	}
	return nil
}

// handle answers one control request (the server calls it).
func (r *runner) handle(ctx context.Context, req control.Request) control.Response {
	var res run.ControlResult
	var err error
	switch req.Op {
	case control.OpStatus:
		st := r.state()
		return control.Response{State: &st}
	case control.OpCancel:
		res, err = r.cancel(ctx, req.Force)
	case control.OpApproval:
		res, err = r.resolve(run.WithAnsweredBy(ctx, req.By), req.ApprovalID, req.Choice, true)
	case control.OpClarify:
		res, err = r.resolve(ctx, req.ClarifyID, req.Answer, false)
	case control.OpModel:
		res, err = r.setModel(ctx, req.Model)
	case control.OpConfig:
		res, err = r.setConfig(ctx, req.ConfigID, req.Value)
	default:
		return control.Response{Code: control.CodeBadRequest, Error: fmt.Sprintf("unknown op %q", req.Op)}
	}
	if err != nil {
		r.log.Error("control failed", "op", req.Op, "err", err)
		return control.Response{Code: control.CodeInternal, Error: "the control could not be recorded"}
	}
	return control.Response{Result: &res}
}

func result(st run.ControlStatus, msg string) run.ControlResult {
	return run.ControlResult{Accepted: st == run.ControlAccepted, Status: st, Message: msg}
}

func accepted(ev run.Event) run.ControlResult {
	return run.ControlResult{Accepted: true, Status: run.ControlAccepted, EventID: ev.EventID}
}

func (r *runner) state() control.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := control.State{RunID: r.spec.RunID, Status: r.runState.Status, LastSeq: r.hub.last(), AgentPid: r.agentPid, Subscribers: r.hub.count()}
	st.PendingApprovalID = r.oldestApprovalLocked("")
	for id, p := range r.clarifies {
		if !p.resolved {
			st.PendingClarifyID = id
		}
	}
	return st
}

// cancel: status{cancelling} is committed, then the ladder runs: protocol
// cancel, SIGTERM to the agent's group, SIGKILL after the grace period.
// The run then ends with exactly one done{cancelled}. force (Force stop,
// also on a run already cancelling) skips to SIGKILL.
func (r *runner) cancel(ctx context.Context, force bool) (run.ControlResult, error) {
	if force {
		// Before ctlMu: a cancel stuck committing must not hold up a kill.
		r.forceOnce.Do(func() { close(r.forced) })
	}
	r.ctlMu.Lock()
	defer r.ctlMu.Unlock()
	r.mu.Lock()
	if r.ended {
		r.mu.Unlock()
		return result(run.ControlNotActive, "the run has already ended"), nil
	}
	if r.cancelled {
		r.mu.Unlock()
		if force {
			return result(run.ControlAccepted, "stopping at once"), nil
		}
		return result(run.ControlNotActive, "the run is already being cancelled"), nil
	}
	r.cancelled = true
	cancelling := run.StatusChanged{Status: run.StatusCancelling}
	r.moveLocked(run.EventStatus, cancelling)
	if r.snapCancel != nil {
		r.snapCancel() // a start snapshot must not hold the cancel up
	}
	r.mu.Unlock()
	ev, err := r.w.AppendSync(ctx, run.EventStatus, cancelling)
	if err != nil && !isRunTerminal(err) {
		// The cancel still happens: a person asked to stop.
		r.journalFailed(err)
	}
	r.closePendingOnCancel(ctx)
	go r.stopAgent()
	if err != nil {
		return result(run.ControlAccepted, "cancelling"), nil
	}
	return accepted(ev), nil
}

// closePendingOnCancel records that open prompts were withdrawn, so no
// client keeps offering buttons for them.
func (r *runner) closePendingOnCancel(ctx context.Context) {
	r.mu.Lock()
	var approvals, clarifies []string
	for id, p := range r.approvals {
		if !p.resolved {
			p.resolved, p.withdrawn = true, true
			approvals = append(approvals, id)
		}
	}
	for id, p := range r.clarifies {
		if !p.resolved {
			p.resolved, p.withdrawn = true, true
			clarifies = append(clarifies, id)
		}
	}
	r.mu.Unlock()
	for _, id := range approvals {
		r.append(run.EventApprovalResolved, run.ApprovalResolved{ApprovalID: id, Choice: "cancelled", By: "cancel"})
	}
	for _, id := range clarifies {
		r.append(run.EventClarifyResolved, run.ClarifyResolved{ClarifyID: id})
	}
}

// stopAgent runs the cancel ladder until the adapter gives the turn back.
// A cancel and a journal failure may both ask; the ladder runs once.
func (r *runner) stopAgent() {
	r.stopOnce.Do(r.runLadder)
}

func (r *runner) runLadder() {
	r.mu.Lock()
	conn, startCancel := r.conn, r.startCancel
	r.mu.Unlock()
	if startCancel != nil {
		startCancel() // an agent still starting stops starting
	}
	if conn != nil && !r.isForced() {
		cctx, cancel := context.WithTimeout(context.Background(), r.tm.protocolCancel)
		go func() {
			select {
			case <-r.forced:
				cancel()
			case <-cctx.Done():
			}
		}()
		if err := conn.Cancel(cctx); err != nil {
			r.log.Warn("protocol cancel", "err", err)
		}
		cancel()
	}
	if r.waitStep(r.tm.protocolCancel) {
		return
	}
	if !r.isForced() {
		r.log.Info("agent still busy after protocol cancel; SIGTERM to its group")
		r.killAgent(syscall.SIGTERM)
		if r.waitStep(r.spec.CancelGrace()) {
			return
		}
	}
	if r.isForced() {
		r.log.Warn("force stop; SIGKILL to the agent's group")
	} else {
		r.log.Warn("agent ignored SIGTERM; SIGKILL to its group", "grace", r.spec.CancelGrace())
	}
	r.killAgent(syscall.SIGKILL)
	if r.waitSettled(r.tm.abandon) {
		return
	}
	r.log.Error("adapter did not return after the agent was killed; ending the run")
	r.abandonOnce.Do(func() { close(r.abandon) })
}

func (r *runner) isForced() bool {
	select {
	case <-r.forced:
		return true
	default:
		return false
	}
}

// waitStep waits for the turn to settle for up to d, cut short by a forced
// cancel; it reports whether the turn settled.
func (r *runner) waitStep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.settled:
		return true
	case <-r.forced:
		select {
		case <-r.settled:
			return true
		default:
			return false
		}
	case <-t.C:
		return false
	}
}

func (r *runner) waitSettled(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.settled:
		return true
	case <-t.C:
		return false
	}
}

// resolve answers an approval (isApproval) or a clarify prompt: the
// resolution event is committed before the agent is told (docs/ARCHITECTURE.md §Controls).
//
// ctlMu covers "check pending, commit resolution" only, not telling the
// agent: an agent that does not take the answer (hung, its stdin full)
// must not hold up a cancel or the terminal event.
func (r *runner) resolve(ctx context.Context, id, answer string, isApproval bool) (run.ControlResult, error) {
	res, ev, conn, optionID, err := r.recordResolution(ctx, id, answer, isApproval)
	if err != nil || !res.Accepted || conn == nil {
		return res, err
	}
	kind := "clarify prompt"
	if isApproval {
		kind = "approval"
	}
	actx, cancel := context.WithTimeout(ctx, agentCallTimeout)
	defer cancel()
	if isApproval {
		err = conn.RespondApproval(actx, id, optionID)
	} else {
		err = conn.RespondClarify(actx, id, answer)
	}
	if err != nil {
		// Recorded and accepted: the agent withdrew the prompt in the
		// meantime (turn ended, cancelled). Nothing is resumed twice.
		r.log.Warn("agent did not take the answer", "kind", kind, "id", id, "err", err)
	}
	return accepted(ev), nil
}

// recordResolution checks the prompt and commits its resolution under
// ctlMu; an accepted result comes with the conn to tell (nil while the
// agent is starting) and the option id the answer picked.
func (r *runner) recordResolution(ctx context.Context, id, answer string, isApproval bool) (res run.ControlResult, ev run.Event, conn adapter.Conn, optionID string, err error) {
	r.ctlMu.Lock()
	defer r.ctlMu.Unlock()
	kind, table := "clarify prompt", r.clarifies
	if isApproval {
		kind, table = "approval", r.approvals
	}
	r.mu.Lock()
	p := table[id]
	ended, conn, caps := r.ended, r.conn, r.caps
	switch {
	case ended:
		r.mu.Unlock()
		return result(run.ControlNotActive, "the run has already ended"), ev, nil, "", nil
	case p == nil:
		r.mu.Unlock()
		if isApproval && !caps.Approvals || !isApproval && !caps.Clarify {
			return result(run.ControlUnsupported, fmt.Sprintf("this agent does not ask for a %s", kind)), ev, nil, "", nil
		}
		return result(run.ControlNotActive, fmt.Sprintf("no %s with that id is waiting", kind)), ev, nil, "", nil
	case p.withdrawn:
		r.mu.Unlock()
		return result(run.ControlNotActive, fmt.Sprintf("the %s was withdrawn when the run was cancelled", kind)), ev, nil, "", nil
	case p.resolved && sameAnswer(p, answer, isApproval):
		r.mu.Unlock()
		return result(run.ControlNotActive, fmt.Sprintf("the %s was already answered", kind)), ev, nil, "", nil
	case p.resolved:
		r.mu.Unlock()
		return result(run.ControlConflict, fmt.Sprintf("the %s was already answered differently", kind)), ev, nil, "", nil
	}
	optionID = answer
	if isApproval {
		o, ok := run.MatchOption(p.options, answer)
		if !ok {
			r.mu.Unlock()
			return result(run.ControlInvalid, fmt.Sprintf("%q is not one of the offered choices: %s (or \"allow\" / \"deny\" for the first allow or reject choice)", answer, run.OfferedChoices(p.options))), ev, nil, "", nil
		}
		optionID = o.ID
	}
	r.mu.Unlock()

	evType, payload := run.EventType(run.EventClarifyResolved), any(run.ClarifyResolved{ClarifyID: id, Answer: answer})
	if isApproval {
		r.mu.Lock()
		next := r.oldestApprovalLocked(id)
		r.mu.Unlock()
		evType, payload = run.EventApprovalResolved, run.ApprovalResolved{ApprovalID: id, Choice: optionID, By: run.AnsweredBy(ctx), NextPending: next}
	}
	ev, err = r.w.AppendSync(ctx, evType, payload)
	if isRunTerminal(err) {
		return result(run.ControlNotActive, "the run has already ended"), ev, nil, "", nil
	}
	if err != nil {
		// The agent waits for an answer that cannot be recorded: like any
		// journal failure, the run ends failed rather than hang.
		r.journalFailed(err)
		return run.ControlResult{}, ev, nil, "", fmt.Errorf("record %s answer: %w", kind, err)
	}
	r.mu.Lock()
	p.resolved, p.answer = true, answer
	if isApproval {
		p.answer = optionID // "allow" and the option's id are the same answer
	}
	r.moveLocked(evType, payload)
	r.mu.Unlock()
	return accepted(ev), ev, conn, optionID, nil
}

// setConfig sets one of the agent's session settings like setModel: the
// agent first, then config.updated with the whole new set and the choice
// the session keeps is recorded (for a model selector model.updated by the
// user instead, so the session keeps the model as the model picker's
// choice would).
func (r *runner) setConfig(ctx context.Context, id, value string) (run.ControlResult, error) {
	r.modelMu.Lock()
	defer r.modelMu.Unlock()
	r.mu.Lock()
	ended, conn := r.ended, r.conn
	r.mu.Unlock()
	switch {
	case ended:
		return result(run.ControlNotActive, "the run has already ended"), nil
	case id == "":
		return result(run.ControlInvalid, "no setting given"), nil
	case conn == nil:
		return result(run.ControlNotActive, "the agent is still starting"), nil
	}
	cs, ok := conn.(adapter.ConfigSetter)
	if !ok {
		return result(run.ControlUnsupported, "this agent has no settings to change"), nil
	}
	actx, cancel := context.WithTimeout(ctx, agentCallTimeout)
	opts, err := cs.SetConfigOption(actx, id, value)
	cancel()
	switch {
	case errors.Is(err, adapter.ErrUnsupported):
		return result(run.ControlUnsupported, "this agent cannot change that setting"), nil
	case errors.Is(err, adapter.ErrInvalidAnswer):
		return result(run.ControlInvalid, err.Error()), nil
	case err != nil:
		return run.ControlResult{}, fmt.Errorf("set %s: %w", id, err)
	}
	// The person's choice is kept for the session's next runs (chosen);
	// a model selector's as the session's model.
	model := false
	for _, o := range opts {
		model = model || (o.ID == id && o.Category == "model")
	}
	cu := run.ConfigUpdated{Options: opts}
	if !model {
		cu.Chosen = map[string]string{id: value}
	}
	r.ctlMu.Lock()
	defer r.ctlMu.Unlock()
	ev, err := r.w.AppendSync(ctx, run.EventConfigUpdated, cu)
	if err == nil && model {
		_, err = r.w.AppendSync(ctx, run.EventModelUpdated, run.ModelUpdated{Model: value, By: "user"})
	}
	if isRunTerminal(err) {
		return result(run.ControlNotActive, "the run has already ended"), nil
	}
	if err != nil {
		r.journalFailed(err)
		return run.ControlResult{}, fmt.Errorf("record setting: %w", err)
	}
	return accepted(ev), nil
}

// oldestApprovalLocked is the oldest approval still waiting, other than
// except; "" when none. The caller holds r.mu.
func (r *runner) oldestApprovalLocked(except string) string {
	for _, id := range r.approvalOrder {
		if p := r.approvals[id]; id != except && p != nil && !p.resolved && !p.withdrawn {
			return id
		}
	}
	return ""
}

// sameAnswer reports whether answer repeats a resolved prompt's answer;
// for an approval, any word that picks the same option does.
func sameAnswer(p *pending, answer string, isApproval bool) bool {
	if !isApproval {
		return p.answer == answer
	}
	o, ok := run.MatchOption(p.options, answer)
	return ok && o.ID == p.answer
}

// setModel asks the agent first, outside ctlMu (an agent that never
// answers must not hold up a cancel or the terminal event), then records
// the switch. modelMu keeps concurrent switches in the agent's order.
func (r *runner) setModel(ctx context.Context, model string) (run.ControlResult, error) {
	r.modelMu.Lock()
	defer r.modelMu.Unlock()
	r.mu.Lock()
	ended, conn := r.ended, r.conn
	r.mu.Unlock()
	if ended {
		return result(run.ControlNotActive, "the run has already ended"), nil
	}
	if model == "" {
		return result(run.ControlNotActive, "no model given"), nil
	}
	if conn == nil {
		return result(run.ControlNotActive, "the agent is still starting"), nil
	}
	actx, cancel := context.WithTimeout(ctx, agentCallTimeout)
	err := conn.SetModel(actx, model)
	cancel()
	if err != nil {
		if errors.Is(err, adapter.ErrUnsupported) {
			return result(run.ControlUnsupported, "this agent cannot switch models"), nil
		}
		return run.ControlResult{}, fmt.Errorf("set model: %w", err)
	}
	// The agent confirmed the switch; record it (not after done).
	r.ctlMu.Lock()
	defer r.ctlMu.Unlock()
	ev, err := r.w.AppendSync(ctx, run.EventModelUpdated, run.ModelUpdated{Model: model, By: "user"})
	if isRunTerminal(err) {
		return result(run.ControlNotActive, "the run has already ended"), nil
	}
	if err != nil {
		r.journalFailed(err)
		return run.ControlResult{}, fmt.Errorf("record model: %w", err)
	}
	return accepted(ev), nil
}
