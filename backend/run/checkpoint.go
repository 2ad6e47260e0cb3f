package run

import "time"

// Checkpoints (docs/ARCHITECTURE.md §Checkpoints): the workspace's files
// kept as a commit on a private ref before every run, and the undos and
// restores done from them. One record per checkpoint, in the journal's
// checkpoints table.

// CheckpointKind says what a checkpoint record is of.
type CheckpointKind string

const (
	// CheckpointRun: the files before a run (Before) and after it (After).
	CheckpointRun CheckpointKind = "run"
	// CheckpointUndo: an undo of another record (Target): the files
	// before the undo (Before) and after it (After). Undoing it redoes.
	CheckpointUndo CheckpointKind = "undo"
	// CheckpointRestore: the files restored to before a turn (Target is
	// that turn's run record); Before and After as for an undo.
	CheckpointRestore CheckpointKind = "restore"
)

// CheckpointState is where a record is in its life.
type CheckpointState string

const (
	// CheckpointTaking: being written; a record found so at start was
	// cut short by a crash and is finished (its ref exists) or dropped.
	CheckpointTaking CheckpointState = "taking"
	// CheckpointKept: written; its refs keep its files.
	CheckpointKept CheckpointState = "kept"
	// CheckpointApplying: an undo or restore writing files; found so at
	// start it is kept as interrupted (Before holds the files before it).
	CheckpointApplying CheckpointState = "applying"
	// CheckpointInterrupted: an undo or restore a crash cut short.
	CheckpointInterrupted CheckpointState = "interrupted"
)

// Checkpoint is one checkpoint record.
type Checkpoint struct {
	ID        string          `json:"id"`
	Kind      CheckpointKind  `json:"kind"`
	State     CheckpointState `json:"state"`
	SessionID string          `json:"session_id"`
	TurnID    string          `json:"turn_id,omitempty"`
	// RunID is the run a CheckpointRun record is of.
	RunID string `json:"run_id,omitempty"`
	// Target is the record an undo or restore worked from.
	Target    string `json:"target,omitempty"`
	Workspace string `json:"workspace"`
	// GitDir is the repository holding the refs: the project's own
	// (common) git dir, or the shadow repository of a plain folder.
	GitDir string `json:"git_dir"`
	Shadow bool   `json:"shadow,omitempty"`
	// Ref keeps Before (refs/hermesdesk/checkpoints/<session>/<turn>);
	// After is kept by the same name under refs/hermesdesk/after/.
	Ref    string `json:"ref"`
	Before string `json:"before,omitempty"`
	// Head is the repository's HEAD commit when the checkpoint was taken
	// (empty for a plain folder or an unborn branch): a fork branches
	// from it and lays Before over it.
	Head  string `json:"head,omitempty"`
	After string `json:"after,omitempty"`
	// Large are the files left out for their size (paths from the top).
	Large []string `json:"large,omitempty"`
	// Files are the paths an undo or restore changed.
	Files     []string  `json:"files,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// CheckpointFilter selects records; empty fields match all.
type CheckpointFilter struct {
	SessionID string
	RunID     string
	TurnID    string
	Kind      CheckpointKind
	State     CheckpointState
}

// CheckpointResult is what an undo or a restore did, or, for a preview,
// would do.
type CheckpointResult struct {
	// Checkpoint is the undo's or restore's own record (nil on preview):
	// undoing it puts the files back as they were before it.
	Checkpoint *Checkpoint      `json:"checkpoint,omitempty"`
	Files      []CheckpointFile `json:"files"`
	Preview    bool             `json:"preview,omitempty"`
}

// CheckpointFile is one file an undo or a restore changes or leaves.
type CheckpointFile struct {
	// Path is relative to the repository's (or plain folder's) top.
	Path string `json:"path"`
	// Action: "write" (back as it was), "remove" (created since),
	// "keep" (created since, kept), "skip" (not stored: too large),
	// "leave" (already as it was).
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
}
