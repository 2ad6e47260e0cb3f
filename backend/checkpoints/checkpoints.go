// Package checkpoints keeps the workspace's files before every run as a
// commit on a private ref, and undoes a run or restores the files to before
// a turn from them (docs/ARCHITECTURE.md §Checkpoints). The snapshots are
// backend/changes' (a temporary index seeded from the person's, objects
// kept in the repository's own store); every git command goes through
// backend/gitcmd. The person's index, stash, branches, HEAD and hooks are
// never touched or run. A plain folder gets a shadow repository in the
// data dir. Each record is journaled (Ledger) before any git command, so a
// crash is finished or dropped at start (Recover).
package checkpoints

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Ledger is where the records are kept: backend/journal's Store.
type Ledger interface {
	PutCheckpoint(ctx context.Context, c run.Checkpoint) error
	GetCheckpoint(ctx context.Context, id string) (run.Checkpoint, error)
	ListCheckpoints(ctx context.Context, f run.CheckpointFilter) ([]run.Checkpoint, error)
	DeleteCheckpoint(ctx context.Context, id string) error
}

// The refs that keep the files: before a turn, and after it.
const (
	RefPrefix   = "refs/hermesdesk/checkpoints/"
	afterPrefix = "refs/hermesdesk/after/"
)

// MaxFileSize is the default size above which a file is noted, not stored
// (the setting checkpoints.max_file_bytes).
const MaxFileSize = changes.MaxFileSize

// ErrNoCheckpoint: the folder cannot have checkpoints (the home folder or
// the file system's root as a plain folder: far too much to copy).
var ErrNoCheckpoint = errors.New("checkpoints: this folder is not checkpointed")

// RefFor names the ref that keeps the files before a session's turn.
func RefFor(session, turn string) string {
	return RefPrefix + refPart(session) + "/" + refPart(turn)
}

// AfterRef names the ref that keeps the files after the record of ref.
func AfterRef(ref string) string { return afterPrefix + strings.TrimPrefix(ref, RefPrefix) }

// refPart keeps an id that is a safe ref component, else hashes it.
func refPart(id string) string {
	ok := id != "" && !strings.HasPrefix(id, ".") && !strings.HasSuffix(id, ".lock") && !strings.Contains(id, "..")
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			ok = false
		}
	}
	if ok {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "x" + hex.EncodeToString(sum[:8])
}

// ShadowDir is the shadow repository of a plain folder in the data dir.
func ShadowDir(dataDir, workspace string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(workspace)))
	return filepath.Join(dataDir, "checkpoints", hex.EncodeToString(sum[:10])+".git")
}

// open opens the keeping snapshots of workspace: in its own repository, or
// in a shadow one for a plain folder (never the home folder or /).
func open(ctx context.Context, dataDir, workspace string, maxFile int64) (*changes.Snapshots, error) {
	o := changes.Options{Keep: true}
	if dataDir != "" && !tooWide(workspace) {
		o.ShadowGitDir = ShadowDir(dataDir, workspace)
	}
	s, err := changes.OpenWith(ctx, workspace, o)
	if errors.Is(err, changes.ErrNotGit) {
		return nil, fmt.Errorf("%w: %s", ErrNoCheckpoint, workspace)
	}
	if err != nil {
		return nil, err
	}
	if maxFile > 0 {
		s.MaxFileSize = maxFile
	}
	return s, nil
}

// tooWide: a plain folder that is the home folder or the root.
func tooWide(workspace string) bool {
	w := filepath.Clean(workspace)
	home, _ := os.UserHomeDir()
	return w == filepath.Dir(w) || (home != "" && w == filepath.Clean(home))
}

// repo runs git in one repository as its snapshots see it.
type repo struct {
	s *changes.Snapshots
}

func (r repo) git(ctx context.Context, stdin string, args ...string) (string, error) {
	c := gitcmd.Cmd{Dir: r.s.Top(), Env: r.s.Env(), Args: args}
	if stdin != "" {
		c.Stdin = strings.NewReader(stdin)
	}
	out, err := gitcmd.Run(ctx, c)
	return string(out), err
}

// identity is who the checkpoint commits say made them.
var identity = gitcmd.Identity("checkpoints@hermesdesk.invalid")

// commit writes tree as a commit (parent optional) and points ref at it.
func (r repo) commit(ctx context.Context, tree, parent, ref, msg string) (string, error) {
	args := []string{"commit-tree", tree, "-m", msg}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: r.s.Top(), Env: append(r.s.Env(), identity...), Args: args})
	if err != nil {
		return "", fmt.Errorf("checkpoints: write the checkpoint: %w", err)
	}
	c := strings.TrimSpace(string(out))
	step("committed")
	if _, err := r.git(ctx, "", "update-ref", ref, c); err != nil {
		return "", fmt.Errorf("checkpoints: keep the checkpoint: %w", err)
	}
	step("ref")
	return c, nil
}

// gitIn runs git against a repository known only by its git dir.
func gitIn(ctx context.Context, gitDir string, args ...string) (string, error) {
	out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: gitDir, Env: []string{"GIT_DIR=" + gitDir}, Args: args})
	return string(out), err
}

// step is a test hook: the kill -9 tests stop the process at a step.
var step = func(string) {}

func newID(prefix string) string {
	b := make([]byte, 8)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}
