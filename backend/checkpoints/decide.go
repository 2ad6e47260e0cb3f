package checkpoints

// The pure decisions of an undo and a restore (docs/ARCHITECTURE.md
// §Checkpoints), table-tested in decide_test.go.

// Entry is one path in a tree: its git mode ("" absent) and blob id.
type Entry struct {
	Mode string
	OID  string
}

func (e Entry) present() bool { return e.Mode != "" }
func (e Entry) regular() bool { return e.Mode == "100644" || e.Mode == "100755" }

// Merged is what a three-way merge of a text file gave.
type Merged int

const (
	MergeNotTried Merged = iota
	MergeClean
	MergeConflicts
)

// FileState is one path the run changed: as it was before the run, after
// it, and now. Binary: one side's content is binary (known only once read:
// asked for where Decide answers NeedMerge).
type FileState struct {
	Path               string
	Before, After, Now Entry
	Binary             bool
	Merge              Merged
}

// Action is what an undo does to one path.
type Action string

const (
	// Leave: the file is already as it was before the run.
	Leave Action = "leave"
	// Write the Before entry (content, mode, symlink target).
	Write Action = "write"
	// Remove the file: the run created it.
	Remove Action = "remove"
	// NeedMerge: changed since the run too; a three-way merge of the
	// text (base After, ours Now, theirs Before) decides.
	NeedMerge Action = "merge"
	// WriteMerged writes the merge's result.
	WriteMerged Action = "write-merged"
	// Conflict: stop before changing anything; Reason says why.
	Conflict Action = "conflict"
)

// Decision is what an undo does to one path.
type Decision struct {
	Path   string
	Action Action
	// Mode is the mode to write (Write, WriteMerged).
	Mode   string
	Reason string
}

// Decide says how to undo the run's change of one path.
func Decide(f FileState) Decision {
	d := Decision{Path: f.Path}
	conflict := func(reason string) Decision {
		d.Action, d.Reason = Conflict, reason
		return d
	}
	switch {
	case f.Now == f.After && !f.Before.present():
		d.Action = Remove
	case f.Now == f.After:
		d.Action, d.Mode = Write, f.Before.Mode
	case f.Now == f.Before:
		d.Action = Leave
	case !f.Now.present():
		return conflict("deleted since this run")
	case !f.After.present():
		return conflict("created again since this run deleted it")
	case !f.Before.present():
		return conflict("edited since this run created it")
	case !f.Before.regular() || !f.After.regular() || !f.Now.regular():
		return conflict("changed since this run (a link or a folder, which cannot be merged)")
	case f.Binary:
		return conflict("changed since this run (binary, which cannot be merged)")
	case f.Merge == MergeNotTried:
		d.Action = NeedMerge
	case f.Merge == MergeConflicts:
		return conflict("the same lines were changed since this run")
	default:
		d.Action, d.Mode = WriteMerged, f.Before.Mode
		if f.Now.Mode != f.After.Mode { // the mode was changed since: keep it
			d.Mode = f.Now.Mode
		}
	}
	return d
}

// RestoreState is one path that differs between a checkpoint and now.
type RestoreState struct {
	Path       string
	Checkpoint Entry
	Now        Entry
	// Large: left out of the checkpoint for its size (not restored).
	Large bool
}

// RestoreAction is what restoring does to one path.
type RestoreAction string

const (
	RestoreWrite  RestoreAction = "write"  // back to the checkpoint's content
	RestoreRemove RestoreAction = "remove" // created since, removal asked for
	RestoreKeep   RestoreAction = "keep"   // created since: kept unless asked
	RestoreSkip   RestoreAction = "skip"   // not stored (large); left as is
)

// DecideRestore says what restoring does to one path; removeCreated: the
// person asked for the files created since to go too.
func DecideRestore(f RestoreState, removeCreated bool) RestoreAction {
	switch {
	case f.Large:
		return RestoreSkip
	case f.Checkpoint.present():
		return RestoreWrite
	case removeCreated:
		return RestoreRemove
	default:
		return RestoreKeep
	}
}
