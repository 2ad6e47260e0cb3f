package run

import "time"

// Conflicts is the conflict radar's answer for one project's repository
// (docs/ARCHITECTURE.md §Conflict radar): which of its active worktrees
// change the same lines, and the order to merge them in. It rides on the
// watch bus (conflicts.changed, and in every snapshot) and answers
// GET /api/projects/{id}/conflicts.
type Conflicts struct {
	ProjectID string `json:"project_id"`
	// Overlaps are the pairs of workspaces whose changes git cannot merge
	// by itself, each with the files and hunks they meet on.
	Overlaps []Overlap `json:"overlaps"`
	// Order is the suggested merge order of the project's active
	// worktrees (workspace ids): fewest conflicts first, ties oldest first.
	Order []string `json:"order"`
	// Lines say it for people, one line per file ("2 workspaces change
	// api/server.go"): the tray shows them.
	Lines []string `json:"lines,omitempty"`
	// CheckedAt is when the radar last looked.
	CheckedAt time.Time `json:"checked_at"`
}

// Overlap is one pair of workspaces that conflict.
type Overlap struct {
	A     OverlapSide   `json:"a"`
	B     OverlapSide   `json:"b"`
	Files []OverlapFile `json:"files"`
}

// OverlapSide is one workspace of an overlap.
type OverlapSide struct {
	WorkspaceID string `json:"workspace_id"`
	// Branch is the worktree's branch (hermesdesk/<slug>).
	Branch string `json:"branch"`
}

// OverlapFile is one file both sides change in ways that conflict.
type OverlapFile struct {
	Path string `json:"path"`
	// Hunks are the conflicted regions of the merged file (none when the
	// conflict is not about lines: one side deleted the file, a binary).
	Hunks []OverlapHunk `json:"hunks,omitempty"`
}

// OverlapHunk is one conflicted region: A's lines and B's.
type OverlapHunk struct {
	// Start and End are the merged file's marker lines, from 1.
	Start int      `json:"start"`
	End   int      `json:"end"`
	A     []string `json:"a"`
	B     []string `json:"b"`
	// ALines and BLines are where A's and B's lines are in that side's own
	// file, so the review and the radar menu place them without matching
	// text; absent when the side's file could not be read.
	ALines *LineSpan `json:"a_lines,omitempty"`
	BLines *LineSpan `json:"b_lines,omitempty"`
}

// LineSpan is lines Start to Start+Count-1 of a file, from 1. Count 0 is
// a place, not lines: the side has none there (it deleted them), just
// before its line Start.
type LineSpan struct {
	Start int `json:"start"`
	Count int `json:"count"`
}
