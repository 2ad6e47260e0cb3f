package service

import (
	"context"
	"errors"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/merge"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/workspaces"
)

// The merge doors (docs/ARCHITECTURE.md §Merge): thin over backend/merge,
// which owns the decisions and the git.

// MergeRequest is POST /api/workspaces/{id}/merge/preview and …/merge:
// the strategy (squash, merge, rebase; "" squash) and, to apply, the
// commit message ("" = the drafted one).
type MergeRequest struct {
	Strategy string `json:"strategy,omitempty"`
	Message  string `json:"message,omitempty"`
}

// PullRequestRequest is POST /api/workspaces/{id}/pr ("" = drafted).
type PullRequestRequest struct {
	Title string `json:"title,omitempty"`
	Body  string `json:"body,omitempty"`
}

// ResolveResult is POST …/merge/resolve: the run started in the
// workspace and the preview it is asked to make clean.
type ResolveResult struct {
	Run     run.StartResult `json:"run"`
	Preview merge.Preview   `json:"preview"`
}

// mergeError gives a merge refusal its own sentence (409).
func (s *Service) mergeError(ctx context.Context, op string, err error) error {
	if errors.Is(err, merge.ErrRefused) {
		s.log.Info("service: "+op+" refused", "err", err)
		return &Error{Code: CodeConflict, Message: merge.Reason(err), Err: err}
	}
	return s.wsError(ctx, op, err)
}

// mergeTarget gathers what backend/merge needs of workspace id: its
// worktree, the repository's main checkout, whether something still
// writes in it, and the session title and messages its drafts come from.
// The session is the workspace's most recent one ("" when none).
func (s *Service) mergeTarget(ctx context.Context, id string) (merge.Target, string, error) {
	if s.ws == nil {
		return merge.Target{}, "", errNoWorkspaces
	}
	w, err := s.ws.Check(ctx, id)
	if err != nil {
		return merge.Target{}, "", s.wsError(ctx, "get workspace", err)
	}
	if w.Kind != workspaces.KindWorktree || w.State != workspaces.StateReady {
		return merge.Target{}, "", &Error{Code: CodeConflict, Message: "only a ready worktree can be merged back; this workspace is " + w.Kind + ", " + w.State}
	}
	top, err := merge.TopOf(ctx, w.Path)
	if err != nil {
		return merge.Target{}, "", s.mergeError(ctx, "find the main checkout", err)
	}
	t := merge.Target{WorkspaceID: w.ID, Top: top, Path: w.Path, Branch: w.Branch, Base: w.Base,
		SetupRunning: w.SetupStatus == workspaces.SetupRunning}
	sessions, err := s.store.ListSessions(ctx, w.ProjectID)
	if err != nil {
		return t, "", s.classify(ctx, "list sessions", "project", err)
	}
	latest := ""
	for i := len(sessions) - 1; i >= 0; i-- { // oldest first
		ses := sessions[i]
		if ses.WorkspaceID != w.ID {
			continue
		}
		latest = ses.ID
		if t.Title == "" {
			t.Title = ses.Title
		}
		live, err := s.store.ListRuns(ctx, run.RunFilter{SessionID: ses.ID, Active: true, Limit: 1})
		if err != nil {
			return t, "", s.classify(ctx, "list runs", "session", err)
		}
		t.RunLive = t.RunLive || len(live) > 0
		msgs, err := s.store.Messages(ctx, ses.ID)
		if err != nil {
			return t, "", s.classify(ctx, "read messages", "session", err)
		}
		for _, m := range msgs {
			if m.Role == run.RoleUser {
				t.Runs = append(t.Runs, merge.Run{Message: m.Content})
			}
		}
	}
	return t, latest, nil
}

// MergePreview previews merging workspace id into its base.
func (s *Service) MergePreview(ctx context.Context, id string, req MergeRequest) (merge.Preview, error) {
	strategy, err := merge.ParseStrategy(req.Strategy)
	if err != nil {
		return merge.Preview{}, badRequest("%s", err.Error())
	}
	t, _, err := s.mergeTarget(ctx, id)
	if err != nil {
		return merge.Preview{}, err
	}
	p, err := merge.PreviewOf(ctx, t, strategy)
	return p, s.mergeError(ctx, "preview merge", err)
}

// MergeWorkspace merges workspace id into its base (409 with the
// sentence when the preview refuses), then says the workspace changed.
func (s *Service) MergeWorkspace(ctx context.Context, id string, req MergeRequest) (merge.Result, error) {
	strategy, err := merge.ParseStrategy(req.Strategy)
	if err != nil {
		return merge.Result{}, badRequest("%s", err.Error())
	}
	t, _, err := s.mergeTarget(ctx, id)
	if err != nil {
		return merge.Result{}, err
	}
	res, err := merge.Apply(ctx, t, strategy, req.Message, time.Now())
	if err != nil {
		return res, s.mergeError(ctx, "merge workspace", err)
	}
	s.log.Info("service: workspace merged", "workspace", id, "base", t.Base, "old", res.OldBase, "new", res.NewBase, "backup", res.Backup)
	s.workspaceMoved(ctx, id)
	return res, nil
}

// ResolveMerge starts a run in the workspace's latest session that is
// told which files conflict with the base and how; the window previews
// again when that run ends.
func (s *Service) ResolveMerge(ctx context.Context, id string, req MergeRequest) (ResolveResult, error) {
	strategy, err := merge.ParseStrategy(req.Strategy)
	if err != nil {
		return ResolveResult{}, badRequest("%s", err.Error())
	}
	t, sessionID, err := s.mergeTarget(ctx, id)
	if err != nil {
		return ResolveResult{}, err
	}
	p, err := merge.PreviewOf(ctx, t, strategy)
	if err != nil {
		return ResolveResult{}, s.mergeError(ctx, "preview merge", err)
	}
	if p.Clean || len(p.Conflicts) == 0 {
		return ResolveResult{Preview: p}, &Error{Code: CodeConflict, Message: "nothing conflicts with " + t.Base + "; there is nothing for the agent to resolve"}
	}
	if sessionID == "" {
		return ResolveResult{Preview: p}, &Error{Code: CodeConflict, Message: "no session works in this workspace, so no agent can resolve the conflict; start one in it"}
	}
	started, err := s.StartRun(ctx, run.StartRequest{SessionID: sessionID, Message: merge.ResolveMessage(t.Base, p.Conflicts)})
	return ResolveResult{Run: started, Preview: p}, err
}

// PushWorkspace pushes the workspace's branch to the checkout's remote.
func (s *Service) PushWorkspace(ctx context.Context, id string) (merge.Pushed, error) {
	t, _, err := s.mergeTarget(ctx, id)
	if err != nil {
		return merge.Pushed{}, err
	}
	p, err := merge.Push(ctx, t)
	return p, s.mergeError(ctx, "push workspace", err)
}

// OpenPullRequest pushes the branch and opens a pull request through gh;
// an empty title or body takes the drafted message's.
func (s *Service) OpenPullRequest(ctx context.Context, id string, req PullRequestRequest) (merge.PullRequest, error) {
	t, _, err := s.mergeTarget(ctx, id)
	if err != nil {
		return merge.PullRequest{}, err
	}
	title, body := merge.DraftPullRequest(t.Title, t.Runs)
	if req.Title != "" {
		title = req.Title
	}
	if req.Body != "" {
		body = req.Body
	}
	pr, err := merge.OpenPullRequest(ctx, t, title, body)
	return pr, s.mergeError(ctx, "open pull request", err)
}

// workspaceMoved says on the watch bus that the workspace's branch or
// base moved (its chip reads its detail again).
func (s *Service) workspaceMoved(ctx context.Context, id string) {
	w, err := s.ws.Get(ctx, id)
	if err == nil {
		s.WorkspaceChanged(w)
	}
}
