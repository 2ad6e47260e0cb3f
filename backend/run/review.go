package run

import "time"

// Review of a workspace (docs/ARCHITECTURE.md §Review): what its agent did
// against the merge-base with its base branch, file by file, the viewed
// marks and the line comments sent back to the agent. backend/review owns
// it; the journal keeps the marks and the comments (migration 15).

// ReviewFile is one changed file of a workspace's review.
type ReviewFile struct {
	// Path is relative to the worktree, slash-separated.
	Path string `json:"path"`
	// Status is added, modified, deleted or renamed.
	Status string `json:"status"`
	// OldPath is where a renamed file was on the base.
	OldPath string `json:"old_path,omitempty"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Binary  bool   `json:"binary,omitempty"`
	// NotCompared says why the file has no diff (too large).
	NotCompared string `json:"not_compared,omitempty"`
	// Blob is the file's content now (git's blob id; "" when deleted):
	// a viewed mark holds for this blob only.
	Blob   string `json:"blob"`
	Viewed bool   `json:"viewed"`
}

// Review is GET /api/workspaces/{id}/review.
type Review struct {
	WorkspaceID string `json:"workspace_id"`
	// Base is the branch the workspace was made from; MergeBase the
	// commit its work is compared with.
	Base      string          `json:"base"`
	MergeBase string          `json:"merge_base"`
	Files     []ReviewFile    `json:"files"`
	Comments  []ReviewComment `json:"comments"`
}

// The sides of a line a comment is on.
const (
	SideOld = "old"
	SideNew = "new"
)

// The states of a comment.
const (
	CommentDraft = "draft"
	CommentSent  = "sent"
)

// ReviewComment is one line comment on a workspace's review.
type ReviewComment struct {
	ID          string `json:"id"`
	WorkspaceID string `json:"workspace_id"`
	Path        string `json:"path"`
	// Side is old (the base's line numbers) or new (the worktree's).
	Side string `json:"side"`
	Line int    `json:"line"`
	// Quote is the commented lines as the diff showed them.
	Quote string `json:"quote"`
	Text  string `json:"text"`
	// State is draft until sent; RunID is the run it was sent in.
	State     string    `json:"state"`
	RunID     string    `json:"run_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// ReviewMark is a file marked viewed at one blob.
type ReviewMark struct {
	Path string `json:"path"`
	Blob string `json:"blob"`
}

// ReviewChange is what review.changed carries: the workspace whose review
// to read again.
type ReviewChange struct {
	WorkspaceID string `json:"workspace_id"`
}
