package review

import (
	"strings"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The pure decisions of a review (docs/ARCHITECTURE.md §Review),
// table-tested in decide_test.go.

// Reviewable says why a workspace cannot be reviewed ("" when it can):
// only a ready worktree has work of its own against a base.
func Reviewable(w run.Workspace) string {
	switch {
	case w.Kind != "worktree":
		return "only a worktree can be reviewed: this session works in the project's own checkout"
	case w.State != "ready":
		return "the worktree is " + w.State + ", not ready: restore it to review it"
	case w.Base == "" && w.BaseCommit == "":
		return "the worktree has no base to compare with"
	}
	return ""
}

// StatusOf is a review's word for a file.changed action.
func StatusOf(action string) string {
	switch action {
	case "created":
		return "added"
	case "deleted":
		return "deleted"
	case "renamed":
		return "renamed"
	}
	return "modified"
}

// Files is the review's file list: each changed file with its counts, its
// blob now, the path a renamed file had, and viewed only when marked at
// that same blob (a file changed since it was viewed is unviewed again).
func Files(changed []run.FileChanged, blobs map[string]string, marks []run.ReviewMark, renames map[string]string) []run.ReviewFile {
	markOf := map[string]string{}
	for _, m := range marks {
		markOf[m.Path] = m.Blob
	}
	out := make([]run.ReviewFile, 0, len(changed))
	for _, f := range changed {
		blob := blobs[f.Path]
		mark, marked := markOf[f.Path]
		rf := run.ReviewFile{Path: f.Path, Status: StatusOf(f.Action), Added: f.Added, Removed: f.Removed,
			Binary: f.Binary, NotCompared: f.NotCompared, Blob: blob, Viewed: marked && mark == blob}
		if f.Action == "renamed" {
			rf.OldPath = renames[f.Path]
		}
		out = append(out, rf)
	}
	return out
}

// MaxCommentBytes bounds a comment's text and its quote.
const MaxCommentBytes = 64 << 10

// CheckComment refuses a comment a person could not mean, in words.
func CheckComment(c run.ReviewComment) string {
	switch {
	case strings.TrimSpace(c.Path) == "":
		return "path is required: the file the comment is on"
	case c.Side != run.SideOld && c.Side != run.SideNew:
		return `side must be "old" (the base's line) or "new" (the worktree's line)`
	case c.Line < 1:
		return "line must be a line number, 1 or more"
	case strings.TrimSpace(c.Text) == "":
		return "the comment is empty: write what the agent should do"
	case len(c.Text) > MaxCommentBytes || len(c.Quote) > MaxCommentBytes:
		return "the comment or its quoted lines are longer than 64 KiB"
	case !utf8.ValidString(c.Text) || !utf8.ValidString(c.Quote) || !utf8.ValidString(c.Path):
		return "the comment must be valid UTF-8"
	}
	return ""
}

// Drafts are the comments not sent yet, oldest first.
func Drafts(all []run.ReviewComment) []run.ReviewComment {
	var out []run.ReviewComment
	for _, c := range all {
		if c.State == run.CommentDraft {
			out = append(out, c)
		}
	}
	return out
}

// SessionFor is the session a review's comments go to: the one named
// (it must work in the workspace), else the workspace's session updated
// last. "" when there is none.
func SessionFor(sessions []run.Session, workspaceID, named string) string {
	var best *run.Session
	for i := range sessions {
		s := &sessions[i]
		if s.WorkspaceID != workspaceID {
			continue
		}
		if named != "" {
			if s.ID == named {
				return s.ID
			}
			continue
		}
		if best == nil || s.UpdatedAt.After(best.UpdatedAt) {
			best = s
		}
	}
	if best == nil {
		return ""
	}
	return best.ID
}
