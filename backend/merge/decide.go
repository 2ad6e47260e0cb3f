// Package merge brings a workspace's work home (docs/ARCHITECTURE.md
// §Merge; DESIGN.md section 13.3): a preview through `git merge-tree --write-tree`
// that moves nothing of the person's, then — only when clean — a squash,
// merge or rebase onto the base branch behind a backup ref, the main
// checkout never left half-merged; push of the workspace branch and a
// pull request through gh. Every git call goes through backend/gitcmd.
package merge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

// Strategy is how the work lands on the base branch.
type Strategy string

const (
	// Squash makes one commit on the base (the default).
	Squash Strategy = "squash"
	// Merge makes a merge commit with the base and the work as parents.
	Merge Strategy = "merge"
	// Rebase replays the workspace's commits one by one on the base.
	Rebase Strategy = "rebase"
)

// ParseStrategy reads a strategy; "" is Squash.
func ParseStrategy(s string) (Strategy, error) {
	switch Strategy(s) {
	case "", Squash:
		return Squash, nil
	case Merge, Rebase:
		return Strategy(s), nil
	}
	return "", fmt.Errorf("%w: the merge strategy %q is not one of squash, merge or rebase", errdefs.ErrInvalid, s)
}

// ErrRefused: the merge is refused for the reason its message says;
// nothing was changed. The service answers 409 with the sentence.
var ErrRefused = fmt.Errorf("%w: merge refused", errdefs.ErrConflict)

type refusal struct{ msg string }

func (r *refusal) Error() string { return r.msg }
func (r *refusal) Unwrap() error { return ErrRefused }

func refused(msg string) error { return &refusal{msg: msg} }

// Reason is the sentence of a refusal (the error's text otherwise).
func Reason(err error) string {
	var r *refusal
	if errors.As(err, &r) {
		return r.msg
	}
	return err.Error()
}

// Facts are what decides a merge, gathered by Preview.
type Facts struct {
	Strategy Strategy
	// Base is the branch the work goes to; BaseMissing when no branch of
	// that name exists (deleted or renamed since the workspace was made).
	Base        string
	BaseMissing bool
	// BaseAhead counts the base's commits since the workspace's fork
	// point: the preview merges with them (a note, not a refusal).
	BaseAhead int
	// Nothing: the work holds nothing the base does not have.
	Nothing bool
	// Clean is merge-tree's answer; Conflicts the conflicted files.
	Clean     bool
	Conflicts []string
	// CheckoutDirty are the files changed (staged, unstaged or untracked)
	// in the checkout where the base is checked out ("" none); Changed are
	// the files the merge changes on the base.
	CheckoutDirty []string
	Changed       []string
	// RebaseMerges: the workspace's history holds a merge commit, which a
	// rebase does not replay.
	RebaseMerges bool
	// RunLive, SetupRunning: something is still writing in the workspace.
	RunLive      bool
	SetupRunning bool
}

// Decision is what the preview offers: Refusal "" means the merge may be
// applied; Notes are worth saying either way.
type Decision struct {
	Refusal string
	Notes   []string
}

// Decide says whether the merge may proceed and, if not, why in a
// sentence naming the files it is about.
func Decide(f Facts) Decision {
	var d Decision
	if f.BaseAhead > 0 && !f.BaseMissing {
		d.Notes = append(d.Notes, fmt.Sprintf("%s moved %s ahead since the workspace was made; the preview merges with it as it is now", f.Base, plural(f.BaseAhead, "commit")))
	}
	switch {
	case f.BaseMissing:
		d.Refusal = fmt.Sprintf("the base branch %q no longer exists, so there is nothing to merge into; create it again or merge by hand", f.Base)
	case f.RunLive:
		d.Refusal = "a run is still working in this workspace; stop it or wait for it to end, then merge"
	case f.SetupRunning:
		d.Refusal = "the workspace's setup script is still running; wait for it to end, then merge"
	case f.Nothing:
		d.Refusal = fmt.Sprintf("the workspace holds nothing that %s does not already have", f.Base)
	case !f.Clean:
		d.Refusal = fmt.Sprintf("the work conflicts with %s in %s; resolve with the agent, or by hand in the workspace, then preview again", f.Base, names(f.Conflicts))
	case f.Strategy == Rebase && f.RebaseMerges:
		d.Refusal = "the workspace's history holds a merge commit, which a rebase does not replay; choose squash or merge"
	default:
		if touched := intersect(f.CheckoutDirty, f.Changed); len(touched) > 0 {
			d.Refusal = fmt.Sprintf("%s has uncommitted changes the merge would overwrite in %s; commit or stash them, then merge", f.Base, names(touched))
		}
	}
	return d
}

// intersect lists the paths of a that b also holds, in a's order.
func intersect(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, p := range b {
		in[p] = true
	}
	var out []string
	for _, p := range a {
		if in[p] {
			out = append(out, p)
		}
	}
	return out
}

// names lists paths for a sentence: all of up to five, else the first
// five and how many more.
func names(paths []string) string {
	const shown = 5
	if len(paths) <= shown {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:shown], ", "), len(paths)-shown)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
