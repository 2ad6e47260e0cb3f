package checkpoints

import (
	"context"
	"fmt"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// CheckpointRevert: files written back to another commit's version (a
// review's "Revert", docs/ARCHITECTURE.md §Review); Before and After as
// for an undo, so undoing it brings the files back.
const CheckpointRevert run.CheckpointKind = "revert"

// RevertTarget says which files of which workspace go back to which
// commit's version.
type RevertTarget struct {
	DataDir   string
	Workspace string
	// SessionID is the session the record is listed under.
	SessionID string
	// Source is the commit whose version the files take (a file it
	// lacks is removed).
	Source string
	Paths  []string
}

// Revert writes t.Paths back to their version in t.Source, in the
// workspace's files only (the index, HEAD and branches untouched), as a
// journaled record whose checkpoint is taken before any file is written:
// Undo of the record brings the files back. A file larger than the
// snapshots keep is not touched (its current content could not be
// restored by an undo) and is named.
func Revert(ctx context.Context, l Ledger, t RevertTarget) (run.CheckpointResult, error) {
	s, err := open(ctx, t.DataDir, t.Workspace, 0)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	defer s.Close()
	r := repo{s}
	now, err := s.Snapshot(ctx)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	diff, err := r.diffTrees(ctx, t.Source, now.Tree)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	want := map[string]bool{}
	for _, p := range t.Paths {
		want[p] = true
	}
	var ops []fileOp
	var oids []string
	var files []run.CheckpointFile
	for _, c := range diff {
		if !want[c.path] {
			continue
		}
		switch {
		case c.gitlink():
			files = append(files, nestedRepo(c.path))
		case isLarge(now.LargePaths(), c.path):
			files = append(files, run.CheckpointFile{Path: c.path, Action: string(RestoreSkip), Reason: "not stored: larger than the limit, so it is left as it is"})
		case c.from == (Entry{}):
			ops = append(ops, fileOp{path: c.path, remove: true})
			files = append(files, run.CheckpointFile{Path: c.path, Action: string(RestoreRemove), Reason: "not in the base"})
		default:
			ops = append(ops, fileOp{path: c.path, mode: c.from.Mode, oid: c.from.OID})
			oids = append(oids, c.from.OID)
			files = append(files, run.CheckpointFile{Path: c.path, Action: string(RestoreWrite)})
		}
	}
	if len(ops) == 0 {
		return run.CheckpointResult{Files: files}, nil
	}
	if err := r.fill(ctx, ops, oids); err != nil {
		return run.CheckpointResult{}, err
	}
	id := newID(string(CheckpointRevert) + "_")
	rec := run.Checkpoint{ID: id, Kind: CheckpointRevert, State: run.CheckpointApplying, SessionID: t.SessionID,
		Workspace: t.Workspace, GitDir: s.GitDir(), Shadow: s.Shadow(), Ref: RefFor(t.SessionID, id), CreatedAt: time.Now()}
	res, err := r.apply(ctx, l, rec, now, ops, files)
	if err != nil {
		return res, fmt.Errorf("checkpoints: revert: %w", err)
	}
	return res, nil
}

func isLarge(large []string, p string) bool {
	for _, l := range large {
		if l == p {
			return true
		}
	}
	return false
}
