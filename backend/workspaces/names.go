// Package workspaces owns workspaces: where a session's agent works, the
// project's own checkout or a git worktree of it that Hermes Desk made
// (docs/ARCHITECTURE.md §Workspaces). Decisions (names, refusals, the setup
// file) are pure and table-tested; git runs only through backend/gitcmd,
// behind the Git interface.
package workspaces

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

// Kinds of workspace.
const (
	KindCheckout = "checkout"
	KindWorktree = "worktree"
)

// States of a worktree workspace. claimed → created → ready is creation
// (claimed: journaled, nothing on disk yet or half made; created: the
// worktree exists, not yet locked; ready: locked with our reason);
// archived: snapshot kept in ArchiveRef, worktree removed, branch kept;
// gone: noticed missing or rolled back; failed: a claim rolled back.
const (
	StateClaimed  = "claimed"
	StateCreated  = "created"
	StateReady    = "ready"
	StateArchived = "archived"
	StateGone     = "gone"
	StateFailed   = "failed"
)

// IDPrefix starts every workspace id.
const IDPrefix = "wsp_"

var idEncoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// NewID returns a fresh workspace id: the prefix and 16 lowercase base32
// characters, the same shape as the journal's ids.
func NewID() string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("workspaces: crypto/rand failed: " + err.Error())
	}
	return IDPrefix + strings.ToLower(idEncoding.EncodeToString(b[:]))
}

// Slug is the id's part that names the folder (and the branch of a
// worktree made without a title). The folder is derived from the id
// alone and the branch is recorded in the claim, so a retry after a crash
// finds what the first attempt made (docs/ARCHITECTURE.md §Workspaces,
// "Creation").
func Slug(id string) (string, error) {
	s, ok := strings.CutPrefix(id, IDPrefix)
	if !ok || len(s) == 0 || len(s) > 32 {
		return "", fmt.Errorf("%q is not a workspace id: %w", id, errdefs.ErrInvalid)
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return "", fmt.Errorf("%q is not a workspace id: %w", id, errdefs.ErrInvalid)
		}
	}
	return s, nil
}

// Names are everything derived from a workspace id.
type Names struct {
	Slug string
	// Branch is the id's short branch name (hermesdesk/<slug>); a titled
	// workspace's comes from BranchFor instead.
	Branch string
	// Ref is the branch's full ref.
	Ref string
	// ArchiveRef holds the archived snapshot.
	ArchiveRef string
	// LockReason is what git's worktree lock says.
	LockReason string
	// Path is <repo>/.worktrees/<slug>, or with the data dir as the
	// location <data root>/<repo folder name>-<hash of its path>/<slug>.
	Path string
}

// Locations of new worktrees (setting workspaces.location).
const (
	LocationRepo = "repo"
	LocationData = "data"
)

// WorktreesDir is the folder, in the repository's top, that holds the
// worktrees Hermes Desk makes; it is excluded through .git/info/exclude.
const WorktreesDir = ".worktrees"

// NamesFor derives the names of workspace id in the repository whose top
// folder is top, its folder in the repository (dataRoot "") or under
// dataRoot (the data dir's worktrees folder: setting workspaces.location
// "data"), where a folder per repository keeps two repositories of the
// same name apart. The row records the path, so archive, restore and
// recovery use the path it was made at whatever the setting says later.
func NamesFor(top, id, dataRoot string) (Names, error) {
	slug, err := Slug(id)
	if err != nil {
		return Names{}, err
	}
	path := filepath.Join(top, WorktreesDir, slug)
	if dataRoot != "" {
		sum := sha256.Sum256([]byte(filepath.Clean(top)))
		path = filepath.Join(dataRoot, filepath.Base(top)+"-"+hex.EncodeToString(sum[:])[:12], slug)
	}
	return Names{
		Slug:       slug,
		Branch:     BranchPrefix + slug,
		Ref:        "refs/heads/hermesdesk/" + slug,
		ArchiveRef: "refs/hermesdesk/archive/" + id,
		LockReason: LockReason(id),
		Path:       path,
	}, nil
}

// LockReason is the reason Hermes Desk gives git's lock on workspace id's
// worktree: it is how a worktree the app made is told from one it did not.
func LockReason(id string) string { return "hermesdesk " + id }
