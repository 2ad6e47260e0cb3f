package checkpoints

import (
	"context"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// What Restore and Revert share (docs/ARCHITECTURE.md §Checkpoints, §Review):
// the workspace's files now compared with a tree whose version they take
// back, each changed file decided by DecideRestore, then the blobs read and
// the whole applied as a record whose checkpoint is taken first (apply).

// since takes the workspace's files now and lists what changed from the
// tree from to them.
func (r repo) since(ctx context.Context, from string) (changes.Snap, []pathChange, error) {
	now, err := r.s.Snapshot(ctx)
	if err != nil {
		return changes.Snap{}, nil, err
	}
	diff, err := r.diffTrees(ctx, from, now.Tree)
	if err != nil {
		return changes.Snap{}, nil, err
	}
	return now, diff, nil
}

// writeBack is a plan to put files back: the file operations, the blobs
// they need, and what is said of each file.
type writeBack struct {
	ops   []fileOp
	oids  []string
	files []run.CheckpointFile
}

// planWriteBack decides each change of diff (from → now): written back to
// its version in from, removed or kept where from lacks it (removeCreated),
// skipped when large or a nested repository; reasons are the words said
// of a file by its action.
func planWriteBack(diff []pathChange, large map[string]bool, removeCreated bool, reasons map[RestoreAction]string) writeBack {
	var w writeBack
	for _, c := range diff {
		if c.gitlink() {
			w.files = append(w.files, nestedRepo(c.path))
			continue
		}
		a := DecideRestore(RestoreState{Path: c.path, Checkpoint: c.from, Now: c.to, Large: large[c.path]}, removeCreated)
		switch a {
		case RestoreWrite:
			w.ops = append(w.ops, fileOp{path: c.path, mode: c.from.Mode, oid: c.from.OID})
			w.oids = append(w.oids, c.from.OID)
		case RestoreRemove:
			w.ops = append(w.ops, fileOp{path: c.path, remove: true})
		}
		w.files = append(w.files, run.CheckpointFile{Path: c.path, Action: string(a), Reason: reasons[a]})
	}
	return w
}

// writeBack reads the plan's blobs and applies it as rec (now: the files
// before it, kept as rec's checkpoint).
func (r repo) writeBack(ctx context.Context, l Ledger, rec run.Checkpoint, now changes.Snap, w writeBack) (run.CheckpointResult, error) {
	if err := r.fill(ctx, w.ops, w.oids); err != nil {
		return run.CheckpointResult{}, err
	}
	return r.apply(ctx, l, rec, now, w.ops, w.files)
}

// largeSet is the union of lists of large files' paths.
func largeSet(lists ...[]string) map[string]bool {
	large := map[string]bool{}
	for _, l := range lists {
		for _, p := range l {
			large[p] = true
		}
	}
	return large
}
