package shim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/park"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/usage"
)

// timings of the cancel ladder and of ending a run. The grace period
// between SIGTERM and SIGKILL is the spec's (a setting); the rest are
// fixed in production and shortened by unit tests.
type timings struct {
	// protocolCancel is how long a protocol cancel gets before the
	// agent's group is sent SIGTERM.
	protocolCancel time.Duration
	// abandon is how long the shim waits for the adapter to notice a
	// SIGKILLed agent before it writes the terminal event regardless.
	abandon time.Duration
	// doneRetries × doneBackoff bounds retrying the terminal event on a
	// failing journal (full disk): it is the one write that must land.
	doneRetries int
	doneBackoff time.Duration
}

// agentCallTimeout bounds one control call into the agent (answering a
// prompt, switching models): docs/ARCHITECTURE.md §API's control call timeout.
const agentCallTimeout = 5 * time.Second

var defaultTimings = timings{
	protocolCancel: run.ProtocolCancelWait,
	abandon:        3 * time.Second,
	doneRetries:    8,
	doneBackoff:    250 * time.Millisecond,
}

// pending is one approval or clarify prompt the agent is waiting on.
type pending struct {
	options   []run.ApprovalOption // approvals only
	resolved  bool
	withdrawn bool // closed by a cancel, not by an answer
	answer    string
}

// runner drives one run: it starts the agent through its adapter, records
// what happens, answers controls and writes the one terminal event.
type runner struct {
	spec     control.Spec
	j        Journal
	w        run.Writer
	hub      *hub
	reg      *adapter.Registry
	log      *slog.Logger
	logw     io.Writer
	onPid    func(int) // publishes the agent's pid (bootstrap)
	began    time.Time
	settled  chan struct{} // closed when Start failed or Turn returned
	abandon  chan struct{} // closed when waiting for the adapter is pointless
	shutdown chan struct{} // closed when the shim must end the run now (signal)
	tm       timings

	// warm is an agent connection kept from the session's previous run
	// (a warm shim): the run plays its turn on it instead of starting one.
	warm adapter.Conn
	// beforeStart runs before the agent is started (the shim claims the
	// session there); nil does nothing.
	beforeStart func(ctx context.Context) error
	// warmUp is asked, before done is written, whether the shim keeps the
	// connection for the session's next run; nil never keeps it.
	warmUp func(r *runner) bool

	// ctlMu serializes controls with each other and with the terminal
	// event, so "check pending, commit resolution" is atomic and nothing is
	// resolved after done.
	ctlMu sync.Mutex
	// modelMu serializes model switches with each other only.
	modelMu sync.Mutex

	mu sync.Mutex
	// state is the run's status and pending prompts, moved only by
	// run.Next (docs/ARCHITECTURE.md §Run state machine) as events are
	// appended, so controls see what the journal derives.
	runState   run.State
	conn       adapter.Conn
	caps       adapter.Capabilities
	agentPid   int
	cancelled  bool
	ended      bool
	journalErr error
	outCap     *outputCap // under mu
	approvals  map[string]*pending
	// approvalOrder is the approvals' ids in the order asked: the oldest
	// still waiting is the pending one (§Run state machine).
	approvalOrder []string
	clarifies     map[string]*pending
	startCancel   context.CancelFunc
	// gone (the data dir disappeared) and shutdownOnce belong to the shim
	// process, shared by the runs it serves in turn.
	gone         *atomic.Bool
	shutdownOnce *sync.Once
	settleOnce   sync.Once
	abandonOnce  sync.Once
	stopOnce     sync.Once
	// forced is closed by a forced cancel ("Force stop"): the ladder skips
	// what is left of the protocol cancel and the SIGTERM grace and kills.
	forced    chan struct{}
	forceOnce sync.Once

	// resumed: the run parked on its vendor's rate limit before and this
	// shim continues it (its message is already in the transcript);
	// parkAttempts is how many times it parked. limit is what the agent
	// said of its rate limit during this turn (park.FromEvent, joined with
	// And); parked: whether this run ended parked (docs/ARCHITECTURE.md
	// §Usage, parked runs).
	resumed      bool
	parkAttempts int
	limit        park.Signal // under mu
	parked       bool        // under mu

	// snaps and base are the git snapshots of the workspace and the one
	// taken as the run began (nil outside git): the end snapshot is
	// diffed against it. snapCancel interrupts the start snapshot (cancel).
	snaps      *changes.Snapshots
	base       changes.Snap
	snapCancel context.CancelFunc // under mu
	// checkpoint keeps the files before and after the run for its undo
	// (nil: not checkpointed); in a git workspace its snapshots are snaps.
	checkpoint *checkpoints.Taken
}

func newRunner(spec control.Spec, j Journal, w run.Writer, h *hub, reg *adapter.Registry, log *slog.Logger, logw io.Writer, onPid func(int)) *runner {
	return &runner{
		spec: spec, j: j, w: w, hub: h, reg: reg, log: log, logw: logw, onPid: onPid,
		began:    time.Now(),
		tm:       defaultTimings,
		settled:  make(chan struct{}),
		abandon:  make(chan struct{}),
		forced:   make(chan struct{}),
		shutdown: make(chan struct{}),
		gone:     new(atomic.Bool),

		shutdownOnce: new(sync.Once),
		runState:     run.State{Status: run.StatusQueued},
		approvals:    map[string]*pending{},
		clarifies:    map[string]*pending{},
		outCap:       newOutputCap(spec.MaxOutput()),
	}
}

// checkpointAfter: a run that stored this much output checkpoints the WAL
// when it ends.
const checkpointAfter = 1 << 20

// outcome is how the run ends.
type outcome struct {
	status     run.Status
	message    string // safe, for people; empty on success
	detail     string // diagnostics (log tail)
	code       run.ErrorCode
	exitCode   *int
	usage      *run.Usage
	stopReason string
	// park: the run waits for its quota instead of ending (status parked).
	park park.Verdict
}

// run serves the run to its end and returns once `done` is committed (or
// could not be, after retries). It returns the agent connection when the
// shim keeps it warm for the session's next run, else nil (closed).
func (r *runner) run(ctx context.Context) adapter.Conn {
	r.opening(ctx)
	o := r.drive(ctx)
	if o.status != run.StatusInterrupted { // a stopped shim ends at once
		r.workspaceChanges(ctx)
	}
	if r.snaps != nil { // its temporary folder goes with the run
		r.snaps.Close()
	}
	if r.checkpoint != nil {
		r.checkpoint.Close()
	}
	return r.finish(ctx, o)
}

func (r *runner) opening(ctx context.Context) {
	s := r.spec
	r.append(run.EventRunStarted, run.RunStarted{Agent: s.Agent, Model: s.Model, Workspace: s.Workspace, NativeSessionID: s.NativeSessionID})
	if !r.resumed { // a resumed run's message is in the transcript already
		r.append(run.EventMessageUser, run.MessageUser{MessageID: s.UserMessageID, Text: s.Message})
	}
	r.snapshotWorkspace(ctx)
	if r.resumed {
		r.setStatus(run.StatusRunning, fmt.Sprintf("resumed after the rate limit (attempt %d)", r.parkAttempts+1))
	} else {
		r.setStatus(run.StatusRunning, "starting agent")
	}
	// The journal derives the turn's progress (worker_started, …,
	// completed) from these events in the same transaction.
	if err := r.w.Flush(ctx); err != nil {
		r.journalFailed(err)
	}
}

// drive starts the agent and plays the turn; it returns how the run ends.
func (r *runner) drive(ctx context.Context) outcome {
	defer r.settle()
	// An agent a person added travels in the spec's settings (its kind and
	// name): the shim knows it without reading them (docs/ARCHITECTURE.md
	// §Agents are data).
	ad, err := agents.Lookup(r.reg, r.spec.Agent, r.spec.Config)
	if err != nil {
		return outcome{status: run.StatusFailed, code: run.ErrorAgentUnknown, message: fmt.Sprintf("Unknown agent %q.", r.spec.Agent)}
	}
	r.mu.Lock()
	r.caps = ad.Capabilities()
	r.mu.Unlock()
	conn := r.warm
	if conn == nil {
		var o *outcome
		if conn, o = r.startAgent(ctx, ad); o != nil {
			return *o
		}
	}
	return r.playTurn(ctx, conn)
}

// startAgent starts the agent for the run; a nil outcome means it is up.
func (r *runner) startAgent(ctx context.Context, ad adapter.Adapter) (adapter.Conn, *outcome) {
	startCtx, cancelStart := context.WithCancel(ctx)
	defer cancelStart()
	r.mu.Lock()
	r.startCancel = cancelStart
	// A cancel (or a journal failure) that came before startCancel was
	// set ran its ladder with nothing to stop: starting the agent now
	// would leave it to the ladder's SIGKILL and abandon steps.
	early, jerr := r.cancelled, r.journalErr
	r.mu.Unlock()
	switch {
	case early:
		return nil, &outcome{status: run.StatusCancelled}
	case jerr != nil:
		return nil, &outcome{status: run.StatusFailed, code: run.ErrorJournal, message: "The run could not be recorded: " + safeJournalReason(jerr)}
	}

	type started struct {
		conn adapter.Conn
		err  error
	}
	sc := make(chan started, 1)
	go func() {
		if r.beforeStart != nil {
			if err := r.beforeStart(startCtx); err != nil {
				sc <- started{nil, err}
				return
			}
		}
		conn, err := ad.Start(startCtx, adapter.StartRequest{
			SessionID:       r.spec.SessionID,
			NativeSessionID: r.spec.NativeSessionID,
			Workspace:       r.spec.Workspace,
			Profile:         r.spec.Profile,
			Model:           r.spec.Model,
			Metadata:        r.spec.Config.Options,
			Config:          r.spec.Config,
			Fork:            r.forkRequest(),
		}, adapter.Host{Launcher: newLauncher(r.logw, r.setAgentPid), Log: r.logw})
		sc <- started{conn, err}
	}()
	var st started
	select {
	case st = <-sc:
	case <-r.abandon:
		go func() { // reap a late Start so its agent does not linger
			if late := <-sc; late.conn != nil {
				late.conn.Close()
			}
		}()
		o := r.abandoned()
		return nil, &o
	case <-r.shutdown:
		o := r.stopped()
		return nil, &o
	}
	if st.err != nil {
		o := outcome{status: run.StatusCancelled}
		if !r.isCancelled() {
			o = r.startFailed(ad, st.err)
		}
		return nil, &o
	}
	return st.conn, nil
}

// playTurn plays the run's turn on a started (or warm) agent.
func (r *runner) playTurn(ctx context.Context, conn adapter.Conn) outcome {
	r.mu.Lock()
	r.conn = conn
	if pid := conn.Pid(); pid > 0 && r.agentPid == 0 {
		r.agentPid = pid
	}
	cancelled := r.cancelled
	r.mu.Unlock()
	if cancelled { // cancel arrived while the agent was starting
		conn.Close()
		return outcome{status: run.StatusCancelled}
	}
	known := conn.NativeSessionID()
	if nid := known; nid != "" && nid != r.spec.NativeSessionID && r.warm == nil {
		if _, err := r.j.UpdateSession(ctx, r.spec.SessionID, run.SessionUpdate{NativeSessionID: &nid}); err != nil {
			r.log.Warn("store native session id", "err", err)
		}
		if r.spec.NativeSessionID != "" {
			// The agent could not load its earlier session (adapters fall
			// back to a new one): say so, or the person would wonder why it
			// forgot the conversation.
			r.log.Warn("agent did not resume its session", "wanted", r.spec.NativeSessionID, "got", nid)
			_ = emitter{r}.Emit(run.EventNotice, run.Notice{Message: ResumeLostMessage})
		}
	}
	r.setStatus(run.StatusRunning, "")

	tc := make(chan adapter.TurnResult, 1)
	go func() {
		tc <- conn.Turn(ctx, adapter.TurnRequest{
			RunID: r.spec.RunID, Message: r.message(conn),
			Attachments: r.spec.Attachments, Model: r.spec.Model, Settings: r.spec.SessionConfig,
		}, emitter{r})
	}()
	var res adapter.TurnResult
	select {
	case res = <-tc:
	case <-r.abandon:
		return r.abandoned()
	case <-r.shutdown:
		return r.stopped()
	}
	r.storeLateNativeSession(ctx, conn, known)
	return r.turnOutcome(res)
}

// storeLateNativeSession keeps a native session id the agent named only
// during its turn (a process per turn, like `hermes chat`, prints it at the
// end), so the session's next run can resume it.
func (r *runner) storeLateNativeSession(ctx context.Context, conn adapter.Conn, known string) {
	nid := conn.NativeSessionID()
	if nid == "" || nid == known || nid == r.spec.NativeSessionID {
		return
	}
	if _, err := r.j.UpdateSession(context.WithoutCancel(ctx), r.spec.SessionID, run.SessionUpdate{NativeSessionID: &nid}); err != nil {
		r.log.Warn("store native session id", "err", err)
	}
}

// ResumeLostMessage is shown when an agent started a new conversation
// instead of resuming the session's earlier one.
const ResumeLostMessage = "The agent could not resume this conversation's earlier session, so it starts afresh: it will not remember the previous turns."

func (r *runner) startFailed(ad adapter.Adapter, err error) outcome {
	r.log.Error("agent start failed", "err", err)
	o := outcome{status: run.StatusFailed, code: run.ErrorAgentStart, detail: r.logTail()}
	if errors.Is(err, adapter.ErrNotInstalled) {
		o.code = run.ErrorAgentNotInstalled
		o.message = fmt.Sprintf("%s is not installed.", ad.DisplayName())
		// The health check says what is wrong and how to fix it.
		ctx, cancel := context.WithTimeout(context.Background(), adapter.HealthTimeout)
		if h := ad.Health(ctx, r.spec.Config); h.Message != "" {
			o.message = h.Message
		}
		cancel()
		o.detail = err.Error()
	} else if ar := (*adapter.AuthRequiredError)(nil); errors.As(err, &ar) {
		// The ways to sign in, in words (never the agent's JSON); Retry
		// after signing in starts the agent again.
		o.code, o.message, o.detail = run.ErrorAuthRequired, ar.Error(), ""
	} else if na := (*adapter.NoAnswerError)(nil); errors.As(err, &na) {
		// Already a sentence for people, naming the command to check.
		o.message = na.Error()
	} else {
		o.message = fmt.Sprintf("%s could not be started: %v", ad.DisplayName(), err)
	}
	return o
}

func (r *runner) turnOutcome(res adapter.TurnResult) outcome {
	r.mu.Lock()
	cancelled, jerr, seen := r.cancelled, r.journalErr, r.limit
	r.mu.Unlock()
	o := decideOutcome(res, cancelled, jerr, r.logTail)
	e := park.Ending{Seen: seen, Enabled: !r.spec.NoPark, Attempts: r.parkAttempts, Now: time.Now()}
	if res.Err != nil {
		e.Error = res.Err.Error()
	}
	return parkOutcome(o, e)
}

// parkOutcome (table-tested in decide_test.go) carries out park.Decide on
// the played turn's outcome: only the agent's own failure can park
// (docs/ARCHITECTURE.md §Usage, parked runs); a cancel, a journal failure
// or a completed turn stay what they are.
func parkOutcome(o outcome, e park.Ending) outcome {
	e.AgentFailed = o.status == run.StatusFailed && o.code == run.ErrorAgent
	v := park.Decide(e)
	if !v.Park() {
		return o
	}
	o.status, o.park = run.StatusParked, v
	return o
}

// decideOutcome is how a played turn ends (pure; table-tested in
// decide_test.go): a journal failure fails the run whatever the agent did,
// a cancel wins over the agent's own result, an agent error fails it with
// the log's tail as detail, and anything else completed.
func decideOutcome(res adapter.TurnResult, cancelled bool, journalErr error, logTail func() string) outcome {
	// Priced here, once, so the journal keeps the cost as the shipped
	// table had it on the day (docs/ARCHITECTURE.md §Usage).
	o := outcome{exitCode: res.ExitCode, usage: usage.Prices.Cost(res.Usage), stopReason: res.StopReason}
	switch {
	case journalErr != nil:
		o.status, o.code = run.StatusFailed, run.ErrorJournal
		o.message = "The run could not be recorded: " + safeJournalReason(journalErr)
	case cancelled || res.Cancelled:
		o.status = run.StatusCancelled
	case res.Err != nil:
		o.status, o.code = run.StatusFailed, run.ErrorAgent
		o.detail = logTail()
		if errors.Is(res.Err, adapter.ErrAgentExited) {
			o.message = "The agent exited unexpectedly"
			if res.ExitCode != nil {
				o.message += fmt.Sprintf(" (exit code %d)", *res.ExitCode)
			}
			o.message += "."
		} else {
			o.message = "The agent failed: " + res.Err.Error()
		}
	default:
		o.status = run.StatusCompleted
	}
	return o
}

// abandoned: the cancel ladder ran to SIGKILL and the adapter still did not
// return; the run ends anyway.
func (r *runner) abandoned() outcome {
	if r.isCancelled() {
		return outcome{status: run.StatusCancelled, detail: "the agent did not stop and was killed"}
	}
	return outcome{status: run.StatusFailed, code: run.ErrorJournal, message: "The run could not be recorded: " + safeJournalReason(r.journalError())}
}

// stopped: the shim itself was told to stop (SIGTERM/SIGINT).
func (r *runner) stopped() outcome {
	r.killAgent(syscall.SIGKILL)
	return outcome{status: run.StatusInterrupted, code: run.ErrorShimStopped, message: "The run was stopped because its host process was terminated."}
}

func (r *runner) finish(ctx context.Context, o outcome) adapter.Conn {
	r.ctlMu.Lock()
	defer r.ctlMu.Unlock()
	r.mu.Lock()
	r.ended = true
	conn := r.conn
	if r.cancelled && o.status == run.StatusCompleted {
		// A cancel accepted while the turn was finishing: the answer it
		// got ("accepted") stands; the output is kept either way.
		o.status = run.StatusCancelled
	}
	r.mu.Unlock()
	// Decided before done is written, so the shim is already waiting for
	// the session's next run when anyone can see this one has ended.
	keep := r.keepable(conn, o) && r.warmUp(r)

	if o.status == run.StatusParked {
		r.parkRun(ctx, o)
		if conn != nil {
			conn.Close()
		}
		r.killAgent(syscall.SIGKILL)
		return nil
	}

	r.mu.Lock()
	closing := r.outCap.end()
	r.mu.Unlock()
	for _, ev := range closing {
		r.append(ev.t, ev.p)
	}
	if o.message != "" {
		// Synchronous: after a failed commit only a synchronous append
		// resynchronizes the writer, and the reason must not be lost.
		if _, err := r.w.AppendSync(context.WithoutCancel(ctx), run.EventError, run.ErrorInfo{Message: o.message, Code: o.code, Detail: o.detail}); err != nil {
			r.log.Warn("error event not written", "err", err)
		}
	}
	done := run.Done{
		Status: o.status, Error: o.message, ExitCode: o.exitCode, Usage: o.usage,
		DurationMs: time.Since(r.began).Milliseconds(), StopReason: o.stopReason,
	}
	if o.status == run.StatusCancelled && done.Error == "" && o.detail != "" {
		done.Error = o.detail
	}
	if err := r.writeDone(ctx, done); err != nil {
		// A run without its terminal event is closed by main as
		// interrupted, which kills the agent: no use keeping it (the
		// shim's exit takes down the warm state it opened). The note
		// tells main why, so the run does not end "unexpectedly".
		keep = false
		note := control.ExitNote{Message: done.Error, Code: o.code}
		if o.code != run.ErrorJournal {
			note = control.ExitNote{Message: "The run could not be recorded: " + safeJournalReason(err), Code: run.ErrorJournal}
		}
		// A run ended by someone else (main fenced it) needs no note.
		if !isRunTerminal(err) {
			if werr := control.WriteExitNote(r.spec.DataDir, r.spec.RunID, note); werr != nil {
				r.log.Warn("exit note not written", "err", werr)
			}
		}
	}
	r.mu.Lock()
	r.moveLocked(run.EventDone, run.Done{Status: o.status})
	big := r.outCap.stored >= checkpointAfter
	r.mu.Unlock()
	if big {
		// A large run grew the WAL; give the space back now rather than
		// when some later checkpoint finds no reader in the way.
		if err := r.j.Checkpoint(context.WithoutCancel(ctx)); err != nil {
			r.log.Info("checkpoint after a large run", "err", err)
		}
	}
	r.log.Info("run ended", "status", o.status, "reason", o.message, "warm", keep)
	if keep {
		return conn
	}
	if conn != nil {
		conn.Close()
	}
	// Whatever the agent left in its group (tool subprocesses) goes too.
	r.killAgent(syscall.SIGKILL)
	return nil
}

// parkRun leaves the run waiting for its quota: status parked (with when
// it resumes and the attempt) instead of done, so the run stays active and
// the core starts it again at the reset (docs/ARCHITECTURE.md §Usage,
// parked runs). What the agent said stays in the log.
func (r *runner) parkRun(ctx context.Context, o outcome) {
	// RFC 3339 keeps whole seconds: rounded up, never resumed early.
	at := o.park.ResumesAt
	if t := at.Truncate(time.Second); !t.Equal(at) {
		at = t.Add(time.Second)
	}
	st := run.StatusChanged{Status: run.StatusParked, Detail: o.park.Detail,
		ResumesAt: at.UTC().Format(time.RFC3339), Attempt: r.parkAttempts + 1}
	if _, err := r.w.AppendSync(context.WithoutCancel(ctx), run.EventStatus, st); err != nil {
		// Not parked after all: the run has no end, and main closes it as
		// interrupted with this note.
		r.log.Error("park: status not written", "err", err)
		if werr := control.WriteExitNote(r.spec.DataDir, r.spec.RunID, control.ExitNote{
			Message: "The run could not be recorded: " + safeJournalReason(err), Code: run.ErrorJournal}); werr != nil {
			r.log.Warn("exit note not written", "err", werr)
		}
		return
	}
	r.mu.Lock()
	r.moveLocked(run.EventStatus, st)
	r.parked = true
	r.mu.Unlock()
	r.log.Info("run parked on a rate limit", "resumes_at", st.ResumesAt, "attempt", st.Attempt, "agent_said", o.message, "detail", o.detail)
}

func (r *runner) isParked() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.parked
}

// keepable: only a turn that completed normally on a live agent leaves it
// fit for the next run (keepWarm decides; docs/ARCHITECTURE.md §Warm agents).
func (r *runner) keepable(conn adapter.Conn, o outcome) bool {
	f := warmFacts{warmable: r.warmUp != nil && conn != nil, status: o.status, dataDirGone: r.gone.Load()}
	if !f.warmable {
		return false
	}
	r.mu.Lock()
	f.spoiled = r.cancelled || r.journalErr != nil
	r.mu.Unlock()
	f.recordedPid, f.connPid = r.agentPidNow(), conn.Pid()
	select {
	case <-conn.Done():
		f.agentGone = true
	case <-r.shutdown:
		f.shuttingDown = true
	default:
	}
	return keepWarm(f)
}

// warmFacts is what keepWarm decides from.
type warmFacts struct {
	warmable     bool // warm agents are on and the run has a connection
	status       run.Status
	dataDirGone  bool
	spoiled      bool // cancelled, or the journal failed
	recordedPid  int  // the agent pid the run recorded (0: none)
	connPid      int  // the pid the connection talks to now
	agentGone    bool
	shuttingDown bool
}

// keepWarm (pure; table-tested in decide_test.go): after a cancel, a
// failure or a stop the agent's state is unknown (or it is gone), so the
// next run starts afresh. An agent whose recorded process is gone while
// the connection lives on (a process per turn: hermes-chat, a command
// agent) is not kept either: its reaped pid is free for reuse, yet a warm
// shim would later signal that group (a cancel, the supervisor's fence,
// the shim's exit), and the next turn's process would be reported to this
// ended run.
func keepWarm(f warmFacts) bool {
	switch {
	case !f.warmable, f.status != run.StatusCompleted, f.dataDirGone, f.spoiled,
		f.agentGone, f.shuttingDown:
		return false
	case f.recordedPid > 0 && f.connPid != f.recordedPid:
		return false
	}
	return true
}

// writeDone commits the terminal event, retrying through a transient
// journal failure (a full disk that frees up): it must land. The error is
// the last failure when it did not.
func (r *runner) writeDone(ctx context.Context, done run.Done) error {
	ctx = context.WithoutCancel(ctx)
	for attempt := 1; ; attempt++ {
		_, err := r.w.AppendSync(ctx, run.EventDone, done)
		if err == nil {
			return nil
		}
		if attempt >= r.tm.doneRetries || isRunTerminal(err) || r.gone.Load() {
			r.log.Error("terminal event not written", "attempt", attempt, "err", err)
			return err
		}
		r.log.Warn("terminal event write failed; retrying", "attempt", attempt, "err", err)
		time.Sleep(time.Duration(attempt) * r.tm.doneBackoff)
	}
}

func (r *runner) settle() { r.settleOnce.Do(func() { close(r.settled) }) }

func (r *runner) isCancelled() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cancelled
}

func (r *runner) journalError() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.journalErr
}

func (r *runner) setAgentPid(pid int) {
	r.mu.Lock()
	r.agentPid = pid
	r.mu.Unlock()
	if r.onPid != nil {
		r.onPid(pid)
	}
}

func (r *runner) killAgent(sig syscall.Signal) {
	r.mu.Lock()
	pid := r.agentPid
	r.mu.Unlock()
	if err := killGroup(pid, sig); err != nil {
		r.log.Warn("signal agent group", "pid", pid, "signal", sig, "err", err)
	}
}

// append enqueues an event for group commit; a journal failure ends the run.
func (r *runner) append(t run.EventType, payload any) {
	r.mu.Lock()
	r.moveLocked(t, payload)
	r.mu.Unlock()
	if _, err := r.w.Append(t, payload); err != nil && !isRunTerminal(err) {
		r.journalFailed(err)
	}
}

func (r *runner) setStatus(s run.Status, detail string) {
	r.append(run.EventStatus, run.StatusChanged{Status: s, Detail: detail})
}

// moveLocked applies an event about to be appended to the run's state
// with run.Next; r.mu is held. Only state events pay for the encoding.
func (r *runner) moveLocked(t run.EventType, payload any) {
	if !run.MovesState(t) {
		return
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return
	}
	r.runState = run.Next(r.runState, t, raw)
}

// journalFailed records the first journal failure and stops the agent: a
// run that cannot be recorded ends `failed` with that reason.
func (r *runner) journalFailed(err error) {
	r.mu.Lock()
	first := r.journalErr == nil && !r.ended
	if first {
		r.journalErr = err
	}
	r.mu.Unlock()
	if first {
		r.log.Error("journal write failed; ending the run", "err", err)
		go r.stopAgent()
	}
}

func (r *runner) logTail() string {
	return control.TailFile(filepath.Join(control.RunDir(r.spec.DataDir, r.spec.RunID), control.LogFile), 2048)
}

// decode turns an adapter's payload (a value, a pointer or anything
// JSON-shaped) into T.
func decode[T any](payload any) (T, bool) {
	switch p := payload.(type) {
	case T:
		return p, true
	case *T:
		if p != nil {
			return *p, true
		}
	}
	var v T
	data, err := json.Marshal(payload)
	if err != nil {
		return v, false
	}
	return v, json.Unmarshal(data, &v) == nil
}
