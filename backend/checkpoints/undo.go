package checkpoints

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// ConflictError: files changed since the run in a way an undo cannot
// merge; nothing was changed. It wraps errdefs.ErrConflict.
type ConflictError struct {
	Files []Decision
}

func (e *ConflictError) Error() string {
	var parts []string
	for _, d := range e.Files {
		parts = append(parts, d.Path+" ("+d.Reason+")")
	}
	return "nothing was changed: these files were changed since the run: " + strings.Join(parts, ", ")
}

func (e *ConflictError) Unwrap() error { return errdefs.ErrConflict }

// Undo reverses exactly what the record id changed (a run, or an undo or
// restore: undoing an undo redoes), from the files before and after it.
// Files changed since are merged where the changes do not touch the same
// lines; otherwise nothing is changed and a ConflictError names them. The
// undo is itself a record (a checkpoint before it), so it can be undone.
func Undo(ctx context.Context, l Ledger, dataDir, id string) (run.CheckpointResult, error) {
	target, err := l.GetCheckpoint(ctx, id)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	// An undo or restore a crash cut short kept no files after it: the
	// files it was writing, as they are now, stand for them.
	cutShort := target.State == run.CheckpointInterrupted && target.After == ""
	if target.Before == "" || (target.After == "" && !cutShort) {
		return run.CheckpointResult{}, fmt.Errorf("checkpoints: the files after this run were not kept, so it cannot be undone: %w", errdefs.ErrUnsupported)
	}
	s, err := openFor(ctx, dataDir, target)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	defer s.Close()
	r := repo{s}
	now, err := s.Snapshot(ctx)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	if cutShort {
		target.After = now.Tree
	}
	ran, err := r.diffTrees(ctx, target.Before, target.After)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	if cutShort {
		ran = only(ran, target.Files)
	}
	since, err := r.diffTrees(ctx, target.After, now.Tree)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	nowOf := map[string]Entry{}
	for _, c := range since {
		nowOf[c.path] = c.to
	}
	var states []FileState
	var nested []run.CheckpointFile
	for _, c := range ran {
		if c.gitlink() {
			nested = append(nested, nestedRepo(c.path))
			continue
		}
		f := FileState{Path: c.path, Before: c.from, After: c.to, Now: c.to}
		if e, ok := nowOf[c.path]; ok {
			f.Now = e
		}
		states = append(states, f)
	}
	ops, files, err := r.plan(ctx, states)
	if err != nil {
		return run.CheckpointResult{}, err
	}
	files = append(files, nested...)
	for _, p := range target.Large {
		files = append(files, run.CheckpointFile{Path: p, Action: string(RestoreSkip), Reason: "not stored: larger than the limit"})
	}
	if len(ops) == 0 { // already as before (undone already): nothing to record
		return run.CheckpointResult{Files: files}, nil
	}
	rec := newRecord(target, run.CheckpointUndo)
	return r.apply(ctx, l, rec, now, ops, files)
}

// plan decides every file of an undo, merging where it must; any conflict
// stops it before anything is written.
func (r repo) plan(ctx context.Context, states []FileState) ([]fileOp, []run.CheckpointFile, error) {
	var want []string
	for _, f := range states {
		if Decide(f).Action == NeedMerge {
			want = append(want, f.Before.OID, f.After.OID, f.Now.OID)
		}
	}
	blobs, err := r.blobs(ctx, want)
	if err != nil {
		return nil, nil, err
	}
	var ops []fileOp
	var files []run.CheckpointFile
	var conflicts []Decision
	var writes []string
	for i, f := range states {
		d := Decide(f)
		if d.Action == NeedMerge {
			before, after, now := blobs[f.Before.OID], blobs[f.After.OID], blobs[f.Now.OID]
			f.Binary = changes.IsBinary(before) || changes.IsBinary(after) || changes.IsBinary(now)
			if d = Decide(f); d.Action == NeedMerge {
				merged, conflict, err := r.merge3(ctx, now, after, before)
				if err != nil {
					return nil, nil, err
				}
				f.Merge = MergeClean
				if conflict {
					f.Merge = MergeConflicts
				}
				if d = Decide(f); d.Action == WriteMerged {
					ops = append(ops, fileOp{path: f.Path, mode: d.Mode, content: merged})
				}
			}
		}
		states[i] = f
		switch d.Action {
		case Conflict:
			conflicts = append(conflicts, d)
		case Remove:
			ops = append(ops, fileOp{path: f.Path, remove: true})
			files = append(files, run.CheckpointFile{Path: f.Path, Action: string(RestoreRemove)})
		case Write:
			ops = append(ops, fileOp{path: f.Path, mode: d.Mode, oid: f.Before.OID})
			writes = append(writes, f.Before.OID)
			files = append(files, run.CheckpointFile{Path: f.Path, Action: string(RestoreWrite)})
		case WriteMerged:
			files = append(files, run.CheckpointFile{Path: f.Path, Action: string(RestoreWrite), Reason: "merged with the changes made since"})
		case Leave:
			files = append(files, run.CheckpointFile{Path: f.Path, Action: string(Leave)})
		}
	}
	if len(conflicts) > 0 {
		return nil, nil, &ConflictError{Files: conflicts}
	}
	if err := r.fill(ctx, ops, writes); err != nil {
		return nil, nil, err
	}
	return ops, files, nil
}

// fill reads the contents the ops write from their blobs.
func (r repo) fill(ctx context.Context, ops []fileOp, oids []string) error {
	blobs, err := r.blobs(ctx, oids)
	if err != nil {
		return err
	}
	for i := range ops {
		if ops[i].oid != "" {
			ops[i].content = blobs[ops[i].oid]
		}
	}
	return nil
}

// newRecord starts the record of an undo or restore of target.
func newRecord(target run.Checkpoint, kind run.CheckpointKind) run.Checkpoint {
	id := newID(string(kind) + "_")
	return run.Checkpoint{ID: id, Kind: kind, State: run.CheckpointApplying, SessionID: target.SessionID,
		TurnID: target.TurnID, Target: target.ID, Workspace: target.Workspace, GitDir: target.GitDir,
		Shadow: target.Shadow, Ref: RefFor(target.SessionID, id), CreatedAt: time.Now()}
}

// apply keeps the files as they are now (the record's Before, so this can
// be undone), writes the ops, and keeps the files after. The record is
// journaled "applying" first: a crash is found at start (Recover).
func (r repo) apply(ctx context.Context, l Ledger, rec run.Checkpoint, now changes.Snap, ops []fileOp, files []run.CheckpointFile) (run.CheckpointResult, error) {
	if err := l.PutCheckpoint(ctx, rec); err != nil {
		return run.CheckpointResult{}, fmt.Errorf("checkpoints: record the %s: %w", rec.Kind, err)
	}
	before, err := r.commit(ctx, now.Tree, "", rec.Ref, "Hermes Desk: before "+string(rec.Kind)+" "+rec.ID)
	if err != nil {
		l.DeleteCheckpoint(context.WithoutCancel(ctx), rec.ID)
		return run.CheckpointResult{}, err
	}
	rec.Before, rec.Large = before, now.LargePaths()
	for _, op := range ops {
		rec.Files = append(rec.Files, op.path)
	}
	sort.Strings(rec.Files)
	if err := l.PutCheckpoint(ctx, rec); err != nil {
		return run.CheckpointResult{}, fmt.Errorf("checkpoints: record the %s: %w", rec.Kind, err)
	}
	// From here the files change: a cancel must not stop half-way.
	wctx := context.WithoutCancel(ctx)
	var failed []string
	for _, op := range ops {
		if err := op.do(r.s.Top()); err != nil {
			failed = append(failed, op.path+": "+err.Error())
		}
		step("wrote")
	}
	after, err := r.s.Snapshot(wctx)
	if err == nil {
		rec.After, err = r.commit(wctx, after.Tree, before, AfterRef(rec.Ref), "Hermes Desk: after "+string(rec.Kind)+" "+rec.ID)
	}
	rec.State = run.CheckpointKept
	if perr := l.PutCheckpoint(wctx, rec); perr != nil && err == nil {
		err = perr
	}
	if len(failed) > 0 {
		return run.CheckpointResult{Checkpoint: &rec, Files: files}, fmt.Errorf("checkpoints: some files could not be written (the %s can be undone): %s", rec.Kind, strings.Join(failed, "; "))
	}
	if err != nil {
		return run.CheckpointResult{Checkpoint: &rec, Files: files}, fmt.Errorf("checkpoints: the files were written but could not be kept after the %s: %w", rec.Kind, err)
	}
	return run.CheckpointResult{Checkpoint: &rec, Files: files}, nil
}

// only keeps the changes of the paths named.
func only(cs []pathChange, paths []string) []pathChange {
	keep := map[string]bool{}
	for _, p := range paths {
		keep[p] = true
	}
	var out []pathChange
	for _, c := range cs {
		if keep[c.path] {
			out = append(out, c)
		}
	}
	return out
}

// openFor opens the snapshots of a record's workspace in the repository
// that holds it.
func openFor(ctx context.Context, dataDir string, rec run.Checkpoint) (*changes.Snapshots, error) {
	o := changes.Options{Keep: true}
	if rec.Shadow {
		o.ShadowGitDir = rec.GitDir
	}
	s, err := changes.OpenWith(ctx, rec.Workspace, o)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: open the workspace %s: %w", rec.Workspace, err)
	}
	if s.GitDir() != rec.GitDir {
		s.Close()
		return nil, fmt.Errorf("checkpoints: the workspace %s is no longer the repository its checkpoints are in: %w", rec.Workspace, errdefs.ErrConflict)
	}
	return s, nil
}
