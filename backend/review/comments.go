package review

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// CommentRequest is a new comment, or (PATCH) a draft's new text.
type CommentRequest struct {
	Path  string `json:"path"`
	Side  string `json:"side"`
	Line  int    `json:"line"`
	Quote string `json:"quote"`
	Text  string `json:"text"`
}

// AddComment journals a draft comment on a line of the workspace's review.
func (r *Reviewer) AddComment(ctx context.Context, id string, req CommentRequest) (run.ReviewComment, error) {
	if _, err := r.workspace(ctx, id); err != nil {
		return run.ReviewComment{}, err
	}
	now := time.Now()
	c := run.ReviewComment{ID: newID(), WorkspaceID: id, Path: req.Path, Side: req.Side, Line: req.Line,
		Quote: req.Quote, Text: req.Text, State: run.CommentDraft, CreatedAt: now, UpdatedAt: now}
	if why := CheckComment(c); why != "" {
		return run.ReviewComment{}, invalid(why)
	}
	if err := r.Store.PutReviewComment(ctx, c); err != nil {
		return run.ReviewComment{}, fmt.Errorf("the comment could not be saved: %w", err)
	}
	r.changed(id)
	return c, nil
}

// draft is one of the workspace's drafts (a sent comment is history).
func (r *Reviewer) draft(ctx context.Context, id, cid string) (run.ReviewComment, error) {
	c, err := r.Store.GetReviewComment(ctx, cid)
	if err != nil {
		return c, err
	}
	if c.WorkspaceID != id {
		return c, notFound("comment " + cid + " is not one of this workspace's")
	}
	if c.State != run.CommentDraft {
		return c, refused("this comment was sent to the agent already and can no longer be changed")
	}
	return c, nil
}

// EditComment changes a draft's text.
func (r *Reviewer) EditComment(ctx context.Context, id, cid, text string) (run.ReviewComment, error) {
	c, err := r.draft(ctx, id, cid)
	if err != nil {
		return c, err
	}
	c.Text = text
	if why := CheckComment(c); why != "" {
		return run.ReviewComment{}, invalid(why)
	}
	if err := r.Store.PutReviewComment(ctx, c); err != nil {
		return run.ReviewComment{}, fmt.Errorf("the comment could not be saved: %w", err)
	}
	r.changed(id)
	return r.Store.GetReviewComment(ctx, cid)
}

// DeleteComment removes a draft.
func (r *Reviewer) DeleteComment(ctx context.Context, id, cid string) error {
	if _, err := r.draft(ctx, id, cid); err != nil {
		return err
	}
	if err := r.Store.DeleteReviewComment(ctx, cid); err != nil {
		return fmt.Errorf("the comment could not be deleted: %w", err)
	}
	r.changed(id)
	return nil
}

// SendRequest is POST /api/workspaces/{id}/review/send.
type SendRequest struct {
	// SessionID picks the session (of the workspace) to send to; ""
	// takes the workspace's session updated last.
	SessionID string `json:"session_id,omitempty"`
}

// SendResult is the run the comments went in, and the comments sent.
type SendResult struct {
	Run      run.StartResult     `json:"run"`
	Comments []run.ReviewComment `json:"comments"`
}

// Send collects the drafts into one follow-up message to the workspace's
// session agent, starts that run through the service's normal path, and
// marks the drafts sent in it.
func (r *Reviewer) Send(ctx context.Context, id string, req SendRequest) (SendResult, error) {
	w, err := r.workspace(ctx, id)
	if err != nil {
		return SendResult{}, err
	}
	all, err := r.Store.ReviewComments(ctx, id)
	if err != nil {
		return SendResult{}, fmt.Errorf("the review's comments could not be read: %w", err)
	}
	drafts := Drafts(all)
	if len(drafts) == 0 {
		return SendResult{}, refused("there are no draft comments to send: comment on a line first")
	}
	sessions, err := r.Store.ListSessions(ctx, w.ProjectID)
	if err != nil {
		return SendResult{}, fmt.Errorf("the workspace's sessions could not be read: %w", err)
	}
	sid := SessionFor(sessions, id, req.SessionID)
	if sid == "" {
		return SendResult{}, refused("no session works in this workspace, so there is no agent to send the comments to")
	}
	res, err := r.Start(ctx, run.StartRequest{SessionID: sid, Message: Message(drafts), ClientRequestID: "review_" + newID()})
	if err != nil {
		return SendResult{}, err
	}
	ids := make([]string, len(drafts))
	for i, c := range drafts {
		ids[i] = c.ID
		drafts[i].State, drafts[i].RunID = run.CommentSent, res.RunID
	}
	if err := r.Store.MarkReviewCommentsSent(ctx, ids, res.RunID); err != nil {
		// The run is started: the comments went. Say so in the log; the
		// drafts stay drafts and can be deleted.
		r.log().Warn("review: comments sent but not marked sent", "workspace", id, "run", res.RunID, "err", err)
	}
	r.changed(id)
	return SendResult{Run: res, Comments: drafts}, nil
}

func newID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "rvc_" + hex.EncodeToString(b)
}

// SentByRun is the workspace's sent comments by the run they went in.
func (r *Reviewer) SentByRun(ctx context.Context, id string) (map[string][]run.ReviewComment, error) {
	all, err := r.Store.ReviewComments(ctx, id)
	if err != nil {
		return nil, err
	}
	out := map[string][]run.ReviewComment{}
	for _, c := range all {
		if c.State == run.CommentSent && c.RunID != "" {
			out[c.RunID] = append(out[c.RunID], c)
		}
	}
	return out, nil
}
