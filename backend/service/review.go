package service

import (
	"context"
	"errors"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/review"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The review of a workspace (docs/ARCHITECTURE.md §Review): the work is
// backend/review's; this is the one door every transport calls.

type reviewer = review.Reviewer

// SetReview connects the reviewer (the stack does): its changes go on the
// watch bus as review.changed, a revert's record as checkpoint.changed,
// and its follow-up runs start through StartRun. Without it the review
// routes are unavailable.
func (s *Service) SetReview(r *review.Reviewer) {
	r.Changed = s.reviewChanged
	r.Checkpoint = s.checkpointChanged
	if r.Start == nil {
		r.Start = s.StartRun
	}
	s.review = r
}

var errNoReview = &Error{Code: CodeUnavailable, Message: "the review of workspaces is not available here"}

// reviewError gives a review refusal its own sentence.
func (s *Service) reviewError(ctx context.Context, op string, err error) error {
	if rf, ok := review.IsRefusal(err); ok {
		code := CodeConflict
		switch {
		case errors.Is(rf.Kind, errdefs.ErrInvalid):
			code = CodeBadRequest
		case errors.Is(rf.Kind, errdefs.ErrNotFound):
			code = CodeNotFound
		}
		return &Error{Code: code, Message: rf.Reason, Err: err}
	}
	var ce *checkpoints.ConflictError
	if errors.As(err, &ce) {
		return s.checkpointError(ctx, op, err)
	}
	return s.classify(ctx, op, "workspace", err)
}

// Review is GET /api/workspaces/{id}/review: the changed files with their
// viewed marks, and the comments.
func (s *Service) Review(ctx context.Context, workspaceID string) (run.Review, error) {
	if s.review == nil {
		return run.Review{}, errNoReview
	}
	rv, err := s.review.Review(ctx, workspaceID)
	return rv, s.reviewError(ctx, "review", err)
}

// ReviewDiff is one file's diff against the merge-base.
func (s *Service) ReviewDiff(ctx context.Context, workspaceID, path string) (run.FileChanged, error) {
	if s.review == nil {
		return run.FileChanged{}, errNoReview
	}
	d, err := s.review.Diff(ctx, workspaceID, path)
	return d, s.reviewError(ctx, "review diff", err)
}

// ViewedRequest is PUT /api/workspaces/{id}/review/viewed.
type ViewedRequest struct {
	Path string `json:"path"`
	// Blob is the file's blob the person saw (from the file list); ""
	// takes the file's blob now.
	Blob   string `json:"blob,omitempty"`
	Viewed bool   `json:"viewed"`
}

// MarkViewed marks a file viewed (at a blob) or not.
func (s *Service) MarkViewed(ctx context.Context, workspaceID string, req ViewedRequest) error {
	if s.review == nil {
		return errNoReview
	}
	return s.reviewError(ctx, "mark viewed", s.review.MarkViewed(ctx, workspaceID, req.Path, req.Blob, req.Viewed))
}

// AddReviewComment journals a draft line comment.
func (s *Service) AddReviewComment(ctx context.Context, workspaceID string, req review.CommentRequest) (run.ReviewComment, error) {
	if s.review == nil {
		return run.ReviewComment{}, errNoReview
	}
	c, err := s.review.AddComment(ctx, workspaceID, req)
	return c, s.reviewError(ctx, "add review comment", err)
}

// EditReviewComment changes a draft's text.
func (s *Service) EditReviewComment(ctx context.Context, workspaceID, commentID, text string) (run.ReviewComment, error) {
	if s.review == nil {
		return run.ReviewComment{}, errNoReview
	}
	c, err := s.review.EditComment(ctx, workspaceID, commentID, text)
	return c, s.reviewError(ctx, "edit review comment", err)
}

// DeleteReviewComment removes a draft.
func (s *Service) DeleteReviewComment(ctx context.Context, workspaceID, commentID string) error {
	if s.review == nil {
		return errNoReview
	}
	return s.reviewError(ctx, "delete review comment", s.review.DeleteComment(ctx, workspaceID, commentID))
}

// SendReview sends the drafts as one follow-up message to the
// workspace's session agent.
func (s *Service) SendReview(ctx context.Context, workspaceID string, req review.SendRequest) (review.SendResult, error) {
	if s.review == nil {
		return review.SendResult{}, errNoReview
	}
	res, err := s.review.Send(ctx, workspaceID, req)
	return res, s.reviewError(ctx, "send review", err)
}

// RevertFile puts a file back to the base's version through a checkpoint
// (undoable with UndoCheckpoint).
func (s *Service) RevertFile(ctx context.Context, workspaceID string, req review.RevertRequest) (run.CheckpointResult, error) {
	if s.review == nil {
		return run.CheckpointResult{}, errNoReview
	}
	s.checkpointMu.Lock()
	defer s.checkpointMu.Unlock()
	res, err := s.review.Revert(ctx, workspaceID, req)
	return res, s.reviewError(ctx, "revert file", err)
}

// reviewChanged publishes review.changed for a workspace.
func (s *Service) reviewChanged(workspaceID string) {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	b.publishLocked(run.WatchMessage{Type: run.WatchReviewChanged, Review: &run.ReviewChange{WorkspaceID: workspaceID}})
}

// reviewsSent are the review comments sent in the runs of a session's
// workspace, by run: the transcript's review cards. Empty for a session in
// the checkout; a failure to read them only loses the cards.
func (s *Service) reviewsSent(ctx context.Context, ses run.Session) map[string][]run.ReviewComment {
	if s.review == nil || ses.WorkspaceID == "" {
		return nil
	}
	byRun, err := s.review.SentByRun(ctx, ses.WorkspaceID)
	if err != nil {
		s.log.Warn("service: the review comments of a session could not be read", "session", ses.ID, "err", err)
	}
	return byRun
}
