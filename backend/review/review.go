// Package review is the review of a workspace (docs/ARCHITECTURE.md
// §Review): its work — the branch's commits and what is uncommitted in the
// worktree — against the merge-base with its base branch, file by file;
// viewed marks; line comments sent back to the workspace's agent as one
// follow-up message; and revert of a file to the base's version through a
// checkpoint, so it can be undone. Git runs only through backend/gitcmd,
// the worktree is read through backend/changes' snapshots (a temporary
// index: the person's index is never touched) and diffs are
// backend/changes' parse.
package review

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Store is the journal as the review uses it.
type Store interface {
	checkpoints.Ledger
	GetWorkspace(ctx context.Context, id string) (run.Workspace, error)
	ListSessions(ctx context.Context, projectID string) ([]run.Session, error)
	WorkspaceRunLive(ctx context.Context, workspaceID string) (bool, error)
	ReviewMarks(ctx context.Context, workspaceID string) ([]run.ReviewMark, error)
	SetReviewMark(ctx context.Context, workspaceID string, m run.ReviewMark, viewed bool) error
	PutReviewComment(ctx context.Context, c run.ReviewComment) error
	GetReviewComment(ctx context.Context, id string) (run.ReviewComment, error)
	ReviewComments(ctx context.Context, workspaceID string) ([]run.ReviewComment, error)
	DeleteReviewComment(ctx context.Context, id string) error
	MarkReviewCommentsSent(ctx context.Context, ids []string, runID string) error
}

// Starter starts a follow-up run through the service's normal path
// (service.StartRun).
type Starter func(ctx context.Context, req run.StartRequest) (run.StartResult, error)

// Reviewer reviews workspaces. Changed, when set, hears every review
// change (the watch bus's review.changed); Checkpoint hears the record a
// revert made (checkpoint.changed).
type Reviewer struct {
	Store   Store
	Start   Starter
	DataDir string
	Log     *slog.Logger

	Changed    func(workspaceID string)
	Checkpoint func(*run.Checkpoint)
}

// Refusal is a request the review turns down, with a person's sentence.
// It wraps errdefs.ErrConflict, or errdefs.ErrInvalid for bad input.
type Refusal struct {
	Reason string
	Kind   error
}

func (r *Refusal) Error() string { return r.Reason }
func (r *Refusal) Unwrap() error { return r.Kind }

func refused(reason string) error  { return &Refusal{Reason: reason, Kind: errdefs.ErrConflict} }
func invalid(reason string) error  { return &Refusal{Reason: reason, Kind: errdefs.ErrInvalid} }
func notFound(reason string) error { return &Refusal{Reason: reason, Kind: errdefs.ErrNotFound} }

func (r *Reviewer) log() *slog.Logger {
	if r.Log == nil {
		return slog.Default()
	}
	return r.Log
}

func (r *Reviewer) changed(id string) {
	if r.Changed != nil {
		r.Changed(id)
	}
}

// workspace is a workspace that can be reviewed: a ready worktree.
func (r *Reviewer) workspace(ctx context.Context, id string) (run.Workspace, error) {
	w, err := r.Store.GetWorkspace(ctx, id)
	if err != nil {
		return w, err
	}
	if why := Reviewable(w); why != "" {
		return w, refused(why)
	}
	return w, nil
}

// Review is the workspace's changed files with their viewed marks, and
// its comments.
func (r *Reviewer) Review(ctx context.Context, id string) (run.Review, error) {
	w, err := r.workspace(ctx, id)
	if err != nil {
		return run.Review{}, err
	}
	work, err := readWork(ctx, w)
	if err != nil {
		return run.Review{}, err
	}
	marks, err := r.Store.ReviewMarks(ctx, id)
	if err != nil {
		return run.Review{}, fmt.Errorf("the viewed marks could not be read: %w", err)
	}
	comments, err := r.Store.ReviewComments(ctx, id)
	if err != nil {
		return run.Review{}, fmt.Errorf("the review's comments could not be read: %w", err)
	}
	return run.Review{WorkspaceID: id, Base: w.Base, MergeBase: work.mergeBase,
		Files: Files(work.files, work.blobs, marks, work.renames), Comments: comments}, nil
}

// Diff is one file's diff against the merge-base, in the shape of a
// file.changed (the window's diff view renders it).
func (r *Reviewer) Diff(ctx context.Context, id, path string) (run.FileChanged, error) {
	if path == "" {
		return run.FileChanged{}, invalid("path is required: the file whose diff to show")
	}
	w, err := r.workspace(ctx, id)
	if err != nil {
		return run.FileChanged{}, err
	}
	work, err := readWork(ctx, w)
	if err != nil {
		return run.FileChanged{}, err
	}
	for _, f := range work.files {
		if f.Path == path {
			return f, nil
		}
	}
	return run.FileChanged{}, notFound(path + " is not changed in this workspace")
}

// MarkViewed marks a file viewed at the blob the person saw (blob ""
// takes the file's blob now), or unmarks it.
func (r *Reviewer) MarkViewed(ctx context.Context, id, path, blob string, viewed bool) error {
	if path == "" {
		return invalid("path is required: the file to mark")
	}
	w, err := r.workspace(ctx, id)
	if err != nil {
		return err
	}
	if viewed && blob == "" {
		work, err := readWork(ctx, w)
		if err != nil {
			return err
		}
		blob = work.blobs[path]
	}
	if err := r.Store.SetReviewMark(ctx, id, run.ReviewMark{Path: path, Blob: blob}, viewed); err != nil {
		return fmt.Errorf("the viewed mark could not be saved: %w", err)
	}
	r.changed(id)
	return nil
}

// IsRefusal tells a refusal (with its sentence) from a failure.
func IsRefusal(err error) (*Refusal, bool) {
	var rf *Refusal
	ok := errors.As(err, &rf)
	return rf, ok
}
