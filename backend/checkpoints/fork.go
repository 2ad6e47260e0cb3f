package checkpoints

import (
	"context"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// ForkBase is the commit a fork of record c branches from (its Head), or a
// refusal in words: a plain folder's checkpoint or one taken before the
// repository had a commit has none (docs/ARCHITECTURE.md §Checkpoints).
func ForkBase(c run.Checkpoint) (string, error) {
	switch {
	case c.Shadow:
		return "", fmt.Errorf("this project is a plain folder, not a git repository, so a fork has no worktree to start in: %w", errdefs.ErrConflict)
	case c.Before == "":
		return "", fmt.Errorf("the checkpoint before this turn was not kept, so there is nothing to fork from: %w", errdefs.ErrConflict)
	case c.Head == "":
		return "", fmt.Errorf("this checkpoint was taken without the repository's commit (before this version, or on an unborn branch), so a fork cannot branch from it: %w", errdefs.ErrConflict)
	}
	return c.Head, nil
}

// LayOver writes the files of checkpoint commit before into worktree, a
// fresh worktree of the same repository made from the checkpoint's Head:
// tracked and untracked files as they were, the files the checkpoint lacks
// removed. Only the worktree's own files and index are written (git
// restore in the worktree; its index stays at its branch's commit, so the
// checkpoint's differences show as changes); the person's checkout is
// never touched.
func LayOver(ctx context.Context, worktree, before string) error {
	// A checkpoint of an empty folder over a worktree with no file: git
	// restore would refuse its pathspec ("did not match any file").
	if empty, err := bothEmpty(ctx, worktree, before); err != nil || empty {
		return err
	}
	_, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: worktree,
		Args: []string{"restore", "--no-overlay", "--source=" + strings.TrimSpace(before), "--worktree", "--", "."}})
	if err != nil {
		return fmt.Errorf("the files before that turn could not be written into the new worktree: %w", err)
	}
	return nil
}

// bothEmpty says whether the checkpoint's tree and the worktree's index
// both hold no file.
func bothEmpty(ctx context.Context, worktree, before string) (bool, error) {
	for _, args := range [][]string{{"ls-tree", "-r", "--name-only", strings.TrimSpace(before)}, {"ls-files"}} {
		out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: worktree, Args: args})
		if err != nil {
			return false, fmt.Errorf("the files before that turn could not be read: %w", err)
		}
		if len(strings.TrimSpace(string(out))) > 0 {
			return false, nil
		}
	}
	return true, nil
}
