package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// work is a workspace's work against its merge-base.
type work struct {
	mergeBase string
	files     []run.FileChanged
	blobs     map[string]string // path → blob now ("" deleted)
	renames   map[string]string // new path → old path
}

// readWork snapshots the worktree (tracked and untracked, .gitignore
// honoured; backend/changes' temporary index and object store, nothing
// of the person's touched) and diffs it against the merge-base of HEAD
// and the base: the branch's commits and what is uncommitted, together.
func readWork(ctx context.Context, w run.Workspace) (work, error) {
	mb, err := mergeBase(ctx, w)
	if err != nil {
		return work{}, err
	}
	s, err := changes.Open(ctx, w.Path)
	if err != nil {
		return work{}, fmt.Errorf("the worktree %s could not be read: %w", w.Path, err)
	}
	defer s.Close()
	now, err := s.Snapshot(ctx)
	if err != nil {
		return work{}, fmt.Errorf("the worktree's files could not be read: %w", err)
	}
	files, err := s.Between(ctx, changes.Snap{Tree: mb}, now)
	if err != nil {
		return work{}, fmt.Errorf("the worktree could not be compared with its base: %w", err)
	}
	files, renames := withRenames(ctx, s, mb, now.Tree, files)
	blobs, err := blobsOf(ctx, s, now.Tree, files)
	if err != nil {
		return work{}, err
	}
	return work{mergeBase: mb, files: files, blobs: blobs, renames: renames}, nil
}

// mergeBase is where the workspace's work starts: the merge-base of its
// HEAD and its base branch; the commit it was made from when the base is
// gone.
func mergeBase(ctx context.Context, w run.Workspace) (string, error) {
	for _, base := range []string{w.Base, w.BaseCommit} {
		if base == "" {
			continue
		}
		out, err := gitcmd.Output(ctx, w.Path, "merge-base", "HEAD", "--end-of-options", base)
		if err == nil && strings.TrimSpace(out) != "" {
			return strings.TrimSpace(out), nil
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
	}
	return "", refused("the workspace's base (" + w.Base + ") has no commit in common with it, so there is nothing to compare with")
}

// blobsOf reads the blob of each changed file in tree (one ls-tree).
func blobsOf(ctx context.Context, s *changes.Snapshots, tree string, files []run.FileChanged) (map[string]string, error) {
	blobs := map[string]string{}
	args := []string{"ls-tree", "-z", "--full-tree", tree, "--"}
	n := 0
	for _, f := range files {
		if f.Action != "deleted" {
			args = append(args, f.Path)
			n++
		}
		blobs[f.Path] = ""
	}
	if n == 0 {
		return blobs, nil
	}
	out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: s.Top(), Env: append(s.Env(), "GIT_LITERAL_PATHSPECS=1"), Args: args})
	if err != nil {
		return nil, fmt.Errorf("the changed files' contents could not be listed: %w", err)
	}
	for p, blob := range parseLsTree(out) {
		if _, ok := blobs[p]; ok {
			blobs[p] = blob
		}
	}
	return blobs, nil
}

// parseLsTree reads `git ls-tree -z`: "<mode> <type> <oid>\t<path>\0".
func parseLsTree(out []byte) map[string]string {
	m := map[string]string{}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || path == "" {
			continue
		}
		m[path] = f[2]
	}
	return m
}
