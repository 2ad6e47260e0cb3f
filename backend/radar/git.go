package radar

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
)

// Git is every git call the radar makes; the real one (RealGit) runs them
// through backend/gitcmd (docs/ARCHITECTURE.md §Security).
type Git interface {
	// State is the workspace at path as a commit: its branch plus its
	// uncommitted work (tracked and untracked, .gitignore honoured).
	State(ctx context.Context, path string) (string, error)
	// MergeTree merges two commits in memory (git merge-tree --write-tree).
	MergeTree(ctx context.Context, dir, a, b string) (gitcmd.MergeTree, error)
	// File is a file's content in a tree.
	File(ctx context.Context, dir, tree, path string) (string, error)
}

// RealGit is the Git that runs git.
func RealGit() Git { return realGit{} }

type realGit struct{}

// stateEnv makes State's commit depend on the files and HEAD alone: the
// same work gives the same commit id, so a pair whose two states did not
// move is never merged again, and one side reverting finds its old answer.
var stateEnv = append(gitcmd.Identity("hermesdesk@localhost"),
	"GIT_AUTHOR_DATE=1700000000 +0000", "GIT_COMMITTER_DATE=1700000000 +0000")

// State takes the work tree as a tree object the way a run's checkpoint
// does (backend/changes Snapshots with Keep: a temporary copy of the
// index, never the person's), then parents it on HEAD. The objects go to
// the repository's own store with no ref: git's gc drops them in time.
func (realGit) State(ctx context.Context, path string) (string, error) {
	s, err := changes.OpenWith(ctx, path, changes.Options{Keep: true})
	if err != nil {
		return "", fmt.Errorf("the workspace %s could not be read as a git work tree: %w", path, err)
	}
	defer s.Close()
	snap, err := s.Snapshot(ctx)
	if err != nil {
		return "", fmt.Errorf("the files of %s could not be taken: %w", path, err)
	}
	out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: path, Env: stateEnv,
		Args: []string{"commit-tree", snap.Tree, "-p", "HEAD", "-m", "Hermes Desk: conflict radar"}})
	if err != nil {
		return "", fmt.Errorf("the state of %s could not be written: %w", path, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func (realGit) MergeTree(ctx context.Context, dir, a, b string) (gitcmd.MergeTree, error) {
	return gitcmd.MergeTreeOf(ctx, dir, a, b)
}

// maxMergedFile bounds a merged file read for its hunks: a larger one
// (a conflicted binary, a generated file) is named without them.
const maxMergedFile = 1 << 20

func (realGit) File(ctx context.Context, dir, tree, path string) (string, error) {
	obj := tree + ":" + path
	size, err := gitcmd.Output(ctx, dir, "cat-file", "-s", obj)
	if err != nil {
		return "", err
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(size), 10, 64); err != nil || n > maxMergedFile {
		return "", fmt.Errorf("the merged %s is %s bytes, past the %d read for hunks", path, strings.TrimSpace(size), maxMergedFile)
	}
	return gitcmd.Output(ctx, dir, "cat-file", "blob", obj)
}
