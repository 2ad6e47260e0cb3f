package service

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Fork from here (docs/ARCHITECTURE.md §Checkpoints): a new session of
// the same project and agent whose worktree starts from the checkpoint
// kept before a turn, with the conversation before that turn handed to
// its agent ahead of its first message.

// HandoverStore keeps a forked session's handover (the journal's Store).
type HandoverStore interface {
	SetSessionHandover(ctx context.Context, sessionID, text string) error
	SessionHandover(ctx context.Context, sessionID string) (string, error)
	SetSessionFork(ctx context.Context, sessionID, fork string) error
	SessionFork(ctx context.Context, sessionID string) (string, error)
}

// ForkRequest is POST /api/sessions/{id}/fork {turn}.
type ForkRequest struct {
	SessionID string `json:"-"`
	TurnID    string `json:"turn"`
}

// Fork makes the new session: a worktree branched from the repository's
// HEAD as it was at the checkpoint, the checkpoint's files laid over it
// (the person's checkout is never touched). A plain folder is refused.
func (s *Service) Fork(ctx context.Context, req ForkRequest) (run.Session, error) {
	l, err := s.checkpointLedger()
	if err != nil {
		return run.Session{}, err
	}
	if s.ws == nil {
		return run.Session{}, errNoWorkspaces
	}
	if req.TurnID == "" {
		return run.Session{}, badRequest("turn is required: the turn whose checkpoint to fork from")
	}
	src, err := s.store.GetSession(ctx, req.SessionID)
	if err != nil {
		return run.Session{}, s.classify(ctx, "fork session", "session", err)
	}
	if err := s.checkRunnableProject(ctx, src.ProjectID); err != nil {
		return run.Session{}, err
	}
	rec, err := checkpoints.TurnCheckpoint(ctx, l, src.ID, req.TurnID)
	if err != nil {
		return run.Session{}, s.classify(ctx, "fork session", "checkpoint", err)
	}
	base, err := checkpoints.ForkBase(rec)
	if err != nil {
		return run.Session{}, &Error{Code: CodeConflict, Message: strings.TrimSuffix(err.Error(), ": "+errdefs.ErrConflict.Error()), Err: err}
	}
	msgs, err := s.store.Messages(ctx, src.ID)
	if err != nil {
		return run.Session{}, s.classify(ctx, "fork session", "session", err)
	}
	title := strings.TrimSpace("Fork of " + src.Title)
	if len(title) > MaxTitleBytes {
		title = "Fork"
	}
	// The checkpoint's files go in before the worktree's setup step runs.
	layOver := func(ctx context.Context, w run.Workspace) error { return checkpoints.LayOver(ctx, w.Path, rec.Before) }
	w, err := s.ws.CreateWith(ctx, src.ProjectID, base, title, layOver)
	if err != nil {
		// A worktree made before a failed lay-over stays (never destroy):
		// archive it from the window.
		return run.Session{}, s.wsError(ctx, "make the fork's worktree", err)
	}
	ses, err := s.store.CreateSession(ctx, run.Session{ProjectID: src.ProjectID, Title: title,
		Agent: src.Agent, Model: src.Model, Profile: src.Profile})
	if err != nil {
		return run.Session{}, s.classify(ctx, "fork session", "session", err)
	}
	if err := s.assignWorkspace(ctx, &ses, w.ID); err != nil {
		return run.Session{}, err
	}
	if text := Handover(msgs, rec.RunID); text != "" {
		if err := l.SetSessionHandover(ctx, ses.ID, text); err != nil {
			return run.Session{}, s.classify(ctx, "fork session", "session", err)
		}
	}
	way, fork := nativeFork(src, msgs, rec.RunID)
	if fork != nil {
		raw, _ := json.Marshal(fork) // a struct of strings and ints
		if err := l.SetSessionFork(ctx, ses.ID, string(raw)); err != nil {
			return run.Session{}, s.classify(ctx, "fork session", "session", err)
		}
	}
	s.log.Info("service: session forked", "from", src.ID, "turn", req.TurnID, "session", ses.ID, "workspace", w.ID, "conversation", way)
	s.sessionChanged(run.SessionCreated, ses.ID, ses.ProjectID)
	return ses, nil
}

// MaxHandoverBytes bounds the conversation handed to a fork's agent; the
// newest messages are kept.
const MaxHandoverBytes = 64 << 10

// The handover's first line: why the agent is given what was said.
const (
	forkedIntro = "This conversation continues an earlier one, forked from it; here is what was said before " +
		"(the files are as they were at that point):\n\n"
	continuedIntro = "This conversation continues an earlier one that you cannot reopen yourself; " +
		"here is what was said in it:\n\n"
)

// Handover is the conversation before run runID's turn as text for a
// fork's agent.
func Handover(msgs []run.Message, runID string) string { return handover(forkedIntro, msgs, runID) }

// handover is the conversation before run runID's turn as text for a new
// agent, after intro: each message's role and content, oldest first (""
// when there is none). The turn's own messages and those after are left
// out; runID "" keeps them all.
func handover(intro string, msgs []run.Message, runID string) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.RunID == runID && runID != "" {
			break
		}
		if strings.TrimSpace(m.Content) == "" {
			continue
		}
		who := "Assistant"
		if m.Role == run.RoleUser {
			who = "User"
		}
		fmt.Fprintf(&b, "%s: %s\n\n", who, strings.TrimSpace(m.Content))
	}
	if b.Len() == 0 {
		return ""
	}
	said := b.String()
	if len(said) > MaxHandoverBytes {
		// The newest part: agents given the message as one command-line
		// argument cannot take more than 128 KiB in it (Linux).
		said = said[len(said)-MaxHandoverBytes:]
		if i := strings.Index(said, "\n\n"); i >= 0 {
			said = said[i+2:]
		}
		said = "(earlier messages left out)\n\n" + strings.ToValidUTF8(said, "")
	}
	return intro + said + "---\n\n"
}

// agentMessage is what a session's agent is given for a message: a forked
// session's first message carries the handover ahead of it, and so does a
// continued one's (history.go ContinueSession) until its agent has a
// session of its own.
func (s *Service) agentMessage(ctx context.Context, ses run.Session, msg string) string {
	if s.checkpoints == nil {
		return ""
	}
	text, err := s.checkpoints.SessionHandover(ctx, ses.ID)
	if err != nil || text == "" {
		return ""
	}
	if ses.NativeSessionID == "" && !history.ResumesNatively(ses.Agent) {
		return text + msg
	}
	msgs, err := s.store.Messages(ctx, ses.ID)
	if err != nil || len(msgs) > 0 {
		return ""
	}
	return text + msg
}
