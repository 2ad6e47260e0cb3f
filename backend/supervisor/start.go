// Launching (docs/ARCHITECTURE.md §Processes): Start queues a run, the
// scheduler (schedule.go) picks it, and launch hands it to a warm agent
// (warm.go) or starts a fresh shim and waits for its bootstrap.

package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"

	"github.com/hermesdesk/hermesdesk/backend/dirwatch"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// Start submits one user message and starts its run now, or leaves it
// queued until its session's active run ends and a slot frees. The same
// ClientRequestID again returns the same run, never a second message.
func (s *Supervisor) Start(ctx context.Context, req run.StartRequest) (run.StartResult, error) {
	if s.isClosed() {
		return run.StartResult{}, ErrClosed
	}
	// Refused before anything is written: a run accepted now would fail,
	// or be recorded in a database nobody will read again.
	if err := s.dataDirProblem(); err != nil {
		s.log.Warn("run refused", "session", req.SessionID, "err", err)
		return run.StartResult{}, err
	}
	ses, err := s.cfg.Store.GetSession(ctx, req.SessionID)
	if err != nil {
		return run.StartResult{}, s.storeErr("session", req.SessionID, err)
	}
	model := req.Model
	if model == "" {
		model = ses.Model
	}
	// From the commit of the submission until its spec is written, the
	// queued run has no spec: schedule must not take it for a lost one.
	s.preparing.Add(1)
	prepared := sync.OnceFunc(func() { s.preparing.Add(-1) })
	defer prepared()
	sub, err := s.cfg.Store.Submit(ctx, run.SubmitRequest{
		SessionID: req.SessionID, Message: req.Message, ClientRequestID: req.ClientRequestID,
		Agent: ses.Agent, Model: model, Attachments: req.Attachments,
	})
	if err != nil {
		return run.StartResult{}, s.storeErr("session", req.SessionID, err)
	}
	r := sub.Run
	// The spec carries the request to the shim. A resubmission writes it
	// again only if it got lost (a crash between submit and spec).
	if !sub.Existing || (r.Status == run.StatusQueued && !fileExists(s.specPath(r.ID))) {
		spec := control.Spec{
			RunID: r.ID, SessionID: r.SessionID, TurnID: sub.Turn.ID, UserMessageID: sub.Turn.UserMessageID,
			Agent: ses.Agent, Message: agentMessage(req), Attachments: req.Attachments, Model: model,
			DataDir: s.cfg.DataDir, DBPath: s.cfg.DBPath, CreatedAt: time.Now().UTC(),
		}
		if req.Fork != nil {
			// The handover only where the agent cannot fork natively.
			spec.Message, spec.Fork, spec.HandoverMessage = req.Message, req.Fork, req.AgentMessage
		}
		if spec.Agent == "" {
			spec.Agent = r.Agent
		}
		if _, err := control.WriteSpec(spec); err != nil {
			s.log.Error("write spec", "run", r.ID, "err", err)
			s.endWithoutShim(ctx, r.ID, run.StatusFailed, "The run could not be prepared (see the app's log).", "")
		}
	}
	prepared()
	s.schedule()
	if cur, err := s.cfg.Store.GetRun(ctx, r.ID); err == nil {
		r = cur
	}
	return run.StartResult{
		RunID: r.ID, SessionID: r.SessionID, UserMessageID: sub.Turn.UserMessageID,
		AssistantMessageID: sub.Turn.AssistantMessageID, Status: r.Status,
	}, nil
}

// agentMessage is what the agent is given: req.AgentMessage (a fork's
// handover ahead of the message) when set, else the message.
func agentMessage(req run.StartRequest) string {
	if req.AgentMessage != "" {
		return req.AgentMessage
	}
	return req.Message
}

func (s *Supervisor) storeErr(what, id string, err error) error {
	switch {
	case errors.Is(err, errdefs.ErrNotFound):
		return fmt.Errorf("%s %s: %w", what, id, ErrNotFound)
	case errors.Is(err, errdefs.ErrConflict):
		return fmt.Errorf("%w: %w", ErrConflict, err)
	}
	return err
}

// launch starts r's shim in the background and follows it.
func (s *Supervisor) launch(r run.Run) {
	t := s.track(r)
	if !s.go_(func() {
		boot, err := s.startShim(r)
		if errors.Is(err, errRunGone) {
			s.log.Info("shim found its run already ended", "run", r.ID)
			t.fail(err)
			s.publishFromJournal(r.ID)
			s.untrack(r.ID)
			s.schedule()
			return
		}
		if err != nil {
			s.startFailed(t, err)
			return
		}
		t.setBoot(boot)
		s.follow(t)
		// Its shim may have gone warm: keep warm agents under the cap.
		s.capWarm()
	}) {
		s.untrack(r.ID)
	}
}

// errShimStart is what a shim that could not start is reported as.
var errShimStart = errors.New("the run's process could not start")

// errFolderMissing: the project's folder went away (moved or deleted)
// before the run's turn came — a follow-up queued earlier, a schedule.
// Said as such, instead of the agent's program "not found" that starting
// it in a missing folder gives (issue 23.12).
var errFolderMissing = errors.New("the project's folder is missing (moved or deleted): locate it or remove the project")

// startShim refreshes the spec with what is known now (the session's native
// id from the previous run, the agent's config, the workspace), hands the
// run to the session's warm shim if one takes it, or else starts a detached
// shim and waits for its bootstrap.
func (s *Supervisor) startShim(r run.Run) (control.Bootstrap, error) {
	ctx := s.ctx
	spec, err := control.ReadSpec(s.specPath(r.ID))
	if err != nil {
		return control.Bootstrap{}, fmt.Errorf("%w: %w", errShimStart, err)
	}
	ses, err := s.cfg.Store.GetSession(ctx, r.SessionID)
	if err != nil {
		return control.Bootstrap{}, fmt.Errorf("%w: session: %w", errShimStart, err)
	}
	proj, err := s.cfg.Store.GetProject(ctx, ses.ProjectID)
	if err != nil {
		return control.Bootstrap{}, fmt.Errorf("%w: project: %w", errShimStart, err)
	}
	dir, wsEnv := proj.Workspace, []string(nil)
	if s.cfg.Workspace != nil {
		// A session in a worktree runs there, so its diff is its own
		// (docs/ARCHITECTURE.md §Workspaces).
		d, env, err := s.cfg.Workspace(ctx, ses)
		if err != nil {
			return control.Bootstrap{}, fmt.Errorf("%w: %w", errShimStart, err)
		}
		if d != "" {
			dir, wsEnv = d, env
		}
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return control.Bootstrap{}, fmt.Errorf("%w: %s: %v", errFolderMissing, dir, err)
	}
	cfg, err := s.cfg.AgentConfig(ctx, spec.Agent)
	if err != nil {
		return control.Bootstrap{}, fmt.Errorf("%w: agent settings: %w", errShimStart, err)
	}
	if len(wsEnv) > 0 {
		cfg.Env = append(append([]string(nil), cfg.Env...), wsEnv...)
	}
	spec.Config, spec.Workspace, spec.Profile = cfg, dir, ses.Profile
	spec.NativeSessionID = ses.NativeSessionID
	spec.SessionConfig = ses.Config // choices made up to now, a queued run's too
	spec.CancelGraceMs = s.cfg.CancelGrace.Milliseconds()
	spec.MaxOutputBytes = s.maxOutput(ctx)
	spec.NoPark = s.noPark(ctx)
	spec.NoCheckpoint, spec.CheckpointMaxFileBytes = s.checkpointSettings(ctx)
	spec.WarmIdleMs = s.cfg.WarmIdle.Milliseconds()
	if s.cfg.WarmIdle < 0 || s.maxWarm(ctx) == 0 {
		spec.WarmIdleMs = -1
	}
	specPath, err := control.WriteSpec(spec)
	if err != nil {
		return control.Bootstrap{}, fmt.Errorf("%w: %w", errShimStart, err)
	}
	if boot, err := s.reuseWarm(spec); err == nil {
		return boot, nil
	} else if !errors.Is(err, control.ErrNoWarm) {
		// Any failure falls back to a fresh shim, which resumes the
		// agent's session (and retires the warm shim if it is still up).
		s.log.Info("warm shim not reused; starting a fresh one", "run", r.ID, "err", err)
	}
	logf, err := os.OpenFile(s.logPath(r.ID), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return control.Bootstrap{}, fmt.Errorf("%w: log: %w", errShimStart, err)
	}
	cmd := exec.Command(s.exe, "shim", "--spec", specPath)
	cmd.Dir = s.runDir(r.ID)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = control.ShimEnv(s.cfg.Env)
	cmd.SysProcAttr = detachedAttr()
	err = cmd.Start()
	logf.Close()
	if err != nil {
		return control.Bootstrap{}, fmt.Errorf("%w: %w", errShimStart, err)
	}
	exited := make(chan struct{})
	exitCode := -1
	// Reap it whenever it ends, even after Close (it is our child).
	go func() {
		cmd.Wait()
		exitCode = cmd.ProcessState.ExitCode()
		close(exited)
	}()
	s.log.Info("shim started", "run", r.ID, "pid", cmd.Process.Pid)
	boot, err := s.waitBootstrap(r.ID, cmd.Process.Pid, exited, func() int { return exitCode })
	if err != nil {
		if errors.Is(err, errShimTimeout) {
			cmd.Process.Kill()
			<-exited
		}
		return control.Bootstrap{}, err
	}
	return boot, nil
}

var errShimTimeout = errors.New("the run's process did not start in time")

// waitBootstrap waits for the bootstrap of the shim with pid (0: any live
// shim of the run, when adopting). A shim that exits first is reported,
// unless it lost the lock race to another shim of the run (its exit code
// says so: that one is followed) or found its run already ended
// (errRunGone). exitCode is read only once exited is closed. The file is
// read again each time something arrives in the run's folder (the shim
// writes it atomically: a rename), not polled (docs/ARCHITECTURE.md §Idle).
func (s *Supervisor) waitBootstrap(runID string, pid int, exited <-chan struct{}, exitCode func() int) (control.Bootstrap, error) {
	deadline := time.NewTimer(s.cfg.StartTimeout)
	defer deadline.Stop()
	arrived, unwatch, err := dirwatch.Changes(s.runDir(runID))
	if err != nil {
		// The run's folder is gone or no watch is to be had: the loop
		// below still reads the file once, and notices the shim's exit
		// and the deadline.
		s.log.Warn("cannot watch the run's folder for its bootstrap", "run", runID, "err", err)
	} else {
		defer unwatch()
	}
	for {
		if b, err := control.ReadBootstrap(s.cfg.DataDir, runID); err == nil && (pid == 0 || b.Pid == pid) {
			return b, nil
		}
		select {
		case <-exited:
			exited = nil
			// It may have published its bootstrap, served its run and
			// exited between two polls: that is a run, not a failure.
			if b, err := control.ReadBootstrap(s.cfg.DataDir, runID); err == nil && b.Pid == pid {
				return b, nil
			}
			if exitCode() == control.ExitOwned {
				pid = 0 // another shim owns the run: follow that one
				continue
			}
			if r, err := s.cfg.Store.GetRun(context.WithoutCancel(s.ctx), runID); err == nil && r.Terminal {
				return control.Bootstrap{}, errRunGone
			}
			return control.Bootstrap{}, fmt.Errorf("%w: it exited with code %d", errShimStart, exitCode())
		case <-deadline.C:
			return control.Bootstrap{}, errShimTimeout
		case <-s.ctx.Done():
			return control.Bootstrap{}, ErrClosed
		case <-arrived:
		}
	}
}

// errRunGone: the shim found its run already ended (cancelled while it
// started) and exited without serving it; nothing failed.
var errRunGone = errors.New("the run had already ended")

// startFailed ends a run whose shim never came up, with a readable reason.
func (s *Supervisor) startFailed(t *tracked, err error) {
	if errors.Is(err, ErrClosed) {
		return
	}
	s.log.Error("shim start failed", "run", t.runID, "err", err)
	t.fail(err)
	// The sentinel is the sentence for people; what follows it in err
	// (files of the data dir, settings errors) stays in the log.
	why := errShimStart
	switch {
	case errors.Is(err, errShimTimeout):
		why = errShimTimeout
	case errors.Is(err, errFolderMissing):
		why = errFolderMissing
	}
	msg := why.Error()
	msg = strings.ToUpper(msg[:1]) + msg[1:] + "."
	s.endWithoutShim(s.ctx, t.runID, run.StatusFailed, msg, control.TailFile(s.logPath(t.runID), 2048))
	s.untrack(t.runID)
	s.schedule()
}

// endWithoutShim ends a run no shim serves (never launched, or failed to
// start) after fencing it: if a shim holds the lock after all, it is left
// to that shim.
func (s *Supervisor) endWithoutShim(ctx context.Context, runID string, st run.Status, reason, detail string) (run.Event, bool) {
	lock, err := control.TryLock(s.lockPath(runID))
	if err != nil {
		s.log.Warn("end run: not fenced", "run", runID, "err", err)
		return run.Event{}, false
	}
	defer lock.Unlock()
	ev, err := s.cfg.Store.EndRun(context.WithoutCancel(ctx), runID, st, reason, detail)
	if err != nil {
		if !errors.Is(err, errdefs.ErrRunTerminal) {
			s.log.Error("end run", "run", runID, "err", err)
		}
		return run.Event{}, false
	}
	s.removeSpec(runID)
	s.publishFromJournal(runID)
	return ev, true
}

// checkpointSettings reads whether checkpoints are off and their file
// size limit (docs/ARCHITECTURE.md §Checkpoints); unset or bad: on, the
// default limit.
func (s *Supervisor) checkpointSettings(ctx context.Context) (off bool, maxFile int64) {
	if v, ok, err := s.cfg.Store.Setting(ctx, checkpoints.SettingEnabled); err == nil && ok {
		var on bool
		if json.Unmarshal(v, &on) == nil {
			off = !on
		}
	}
	if v, ok, err := s.cfg.Store.Setting(ctx, checkpoints.SettingMaxFileBytes); err == nil && ok {
		if json.Unmarshal(v, &maxFile) != nil || maxFile < 0 {
			s.log.Warn("ignoring an invalid setting", "key", checkpoints.SettingMaxFileBytes, "value", string(v))
			maxFile = 0
		}
	}
	return off, maxFile
}

func (s *Supervisor) maxOutput(ctx context.Context) int64 {
	v, ok, err := s.cfg.Store.Setting(ctx, SettingMaxOutput)
	if err != nil || !ok {
		return 0
	}
	var mb float64
	if err := json.Unmarshal(v, &mb); err != nil || mb <= 0 {
		s.log.Warn("ignoring an invalid setting", "key", SettingMaxOutput, "value", string(v))
		return 0
	}
	return int64(mb * (1 << 20))
}
