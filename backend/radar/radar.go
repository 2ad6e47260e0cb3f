// Package radar is the conflict radar (docs/ARCHITECTURE.md §Conflict
// radar): when a workspace's files change, the other active worktrees of
// the same repository are merged with it in memory (git merge-tree) and
// every pair that would conflict is told, with the files and hunks, and a
// suggested merge order. It works off the hot path: the doors only mark a
// project dirty and wake one goroutine; changes during a pass make one
// more pass after it; idle, nothing runs.
package radar

import (
	"context"
	"log/slog"
	"reflect"
	"sort"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Source is what the radar reads of the journal.
type Source interface {
	// Workspaces lists a project's workspaces (the radar keeps the ready
	// worktrees the app made).
	Workspaces(ctx context.Context, projectID string) ([]run.Workspace, error)
	// SessionWorkspace is the workspace a session works in ("" for the
	// project's own checkout).
	SessionWorkspace(ctx context.Context, sessionID string) (string, error)
}

// Limits on what one overlap carries: the window and the tray show a
// glance, the review view reads the file itself.
const (
	maxHunksPerFile = 20
	maxHunkLines    = 12
	maxFilesPerPair = 50
	// passTimeout bounds one project's pass.
	passTimeout = 2 * time.Minute
)

// Radar watches the active worktrees of every project for conflicts.
type Radar struct {
	src Source
	git Git
	log *slog.Logger
	// Publish hears each project's answer when it changed (the watch
	// bus's conflicts.changed). Called from the radar's goroutine.
	Publish func(run.Conflicts)
	// Passed, when set, hears every finished pass (tests, benchmarks).
	Passed func(projectID string, took time.Duration)

	wake chan struct{} // one slot: a wake-up while one waits is the same

	mu       sync.Mutex
	dirty    map[string]map[string]bool // project → changed workspace ids
	sessions map[string]string          // session → project, to resolve in the pass
	last     map[string]run.Conflicts   // each project's latest answer
	seen     map[string]string          // each workspace's state as last told

	// Owned by the pass goroutine.
	states map[string]string   // workspace id → its last state commit
	pairs  map[Pair]pairAnswer // the last merge of each pair
}

// pairAnswer is one pair's merge, remembered for the states it was of.
type pairAnswer struct {
	a, b  string // the state commits merged
	files []run.OverlapFile
}

// New returns a radar; Run drives it.
func New(src Source, git Git, log *slog.Logger) *Radar {
	if log == nil {
		log = slog.Default()
	}
	return &Radar{src: src, git: git, log: log, wake: make(chan struct{}, 1),
		dirty: map[string]map[string]bool{}, sessions: map[string]string{}, last: map[string]run.Conflicts{}, seen: map[string]string{},
		states: map[string]string{}, pairs: map[Pair]pairAnswer{}}
}

// FilesChanged says a run of the session changed files (a file.changed
// event, or the run ended). Never blocks: the watch bus calls it.
func (r *Radar) FilesChanged(projectID, sessionID string) {
	if projectID == "" || sessionID == "" {
		return
	}
	r.mu.Lock()
	r.sessions[sessionID] = projectID
	r.mu.Unlock()
	r.kick()
}

// WorkspaceChanged says a workspace was made, archived, restored or found
// changed: when its state moved, its project is looked at again and the
// workspace re-taken. The same state again (a setup's output streaming,
// four times a second) is not a change of its files the radar can see.
func (r *Radar) WorkspaceChanged(w run.Workspace) {
	if w.ProjectID == "" || w.ID == "" {
		return
	}
	r.mu.Lock()
	same := r.seen[w.ID] == w.State
	r.seen[w.ID] = w.State
	r.mu.Unlock()
	if !same {
		r.mark(w.ProjectID, w.ID)
	}
}

// Project asks for a pass over a project (at start: the overlaps that
// were there before it).
func (r *Radar) Project(projectID string) { r.mark(projectID, "") }

func (r *Radar) mark(projectID, workspaceID string) {
	r.mu.Lock()
	if r.dirty[projectID] == nil {
		r.dirty[projectID] = map[string]bool{}
	}
	if workspaceID != "" {
		r.dirty[projectID][workspaceID] = true
	}
	r.mu.Unlock()
	r.kick()
}

func (r *Radar) kick() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Conflicts is a project's latest answer (empty before its first pass).
func (r *Radar) Conflicts(projectID string) (run.Conflicts, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.last[projectID]
	return c, ok
}

// rest is the pause after a pass before the next one starts: an agent
// editing file after file makes at most a few passes a second, each over
// all its edits so far, rather than one per edit back to back. Only after
// a pass: idle, no timer.
const rest = 250 * time.Millisecond

// Run passes over what changed each time it is woken, until ctx ends.
func (r *Radar) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		}
		r.passAll(ctx)
		t := time.NewTimer(rest)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// passAll takes what is dirty now and passes over each project; marks
// made meanwhile wake the loop again for one more pass.
func (r *Radar) passAll(ctx context.Context) {
	r.mu.Lock()
	dirty, sessions := r.dirty, r.sessions
	r.dirty, r.sessions = map[string]map[string]bool{}, map[string]string{}
	r.mu.Unlock()
	for ses, project := range sessions {
		id, err := r.src.SessionWorkspace(ctx, ses)
		if err != nil {
			r.log.Debug("radar: the session's workspace", "session", ses, "err", err)
			continue
		}
		if id == "" {
			continue // the project's checkout is not a participant (§Conflict radar)
		}
		if dirty[project] == nil {
			dirty[project] = map[string]bool{}
		}
		dirty[project][id] = true
	}
	projects := make([]string, 0, len(dirty))
	for p := range dirty {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	for _, p := range projects {
		if ctx.Err() != nil {
			return
		}
		r.pass(ctx, p, dirty[p])
	}
}

// pass re-takes the changed workspaces of one project (and those never
// taken), merges every pair holding one of them, and publishes the
// project's answer when it differs from the last.
func (r *Radar) pass(ctx context.Context, projectID string, changed map[string]bool) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, passTimeout)
	defer cancel()
	list, err := r.src.Workspaces(ctx, projectID)
	if err != nil {
		r.log.Warn("radar: the project's workspaces could not be listed", "project", projectID, "err", err)
		return
	}
	active := Active(list)
	ids := make([]string, 0, len(active))
	retake := map[string]bool{}
	for _, w := range active {
		ids = append(ids, w.ID)
		// A lone worktree has nobody to conflict with: not taken.
		if len(active) > 1 && (changed[w.ID] || r.states[w.ID] == "") {
			retake[w.ID] = true
		}
	}
	for _, w := range active {
		if !retake[w.ID] {
			continue
		}
		c, err := r.git.State(ctx, w.Path)
		if err != nil {
			r.log.Info("radar: a workspace's state could not be taken", "workspace", w.ID, "err", err)
			delete(r.states, w.ID)
			continue
		}
		r.states[w.ID] = c
	}
	r.forget(ids)
	byID := map[string]run.Workspace{}
	for _, w := range active {
		byID[w.ID] = w
	}
	var overlaps []run.Overlap
	for _, p := range Pairs(ids, retake) {
		r.merge(ctx, byID[p.A], byID[p.B], p)
	}
	for i := 0; i < len(ids); i++ {
		for j := i + 1; j < len(ids); j++ {
			p := Pair{ids[i], ids[j]}
			ans, ok := r.pairs[p]
			if !ok || ans.a != r.states[p.A] || ans.b != r.states[p.B] {
				// Not merged for these states (a state failed, or a
				// pair new since the last pass): merge it now.
				ans, ok = r.merge(ctx, byID[p.A], byID[p.B], p)
			}
			if ok && len(ans.files) > 0 {
				overlaps = append(overlaps, run.Overlap{
					A:     run.OverlapSide{WorkspaceID: p.A, Branch: byID[p.A].Branch},
					B:     run.OverlapSide{WorkspaceID: p.B, Branch: byID[p.B].Branch},
					Files: ans.files})
			}
		}
	}
	c := run.Conflicts{ProjectID: projectID, Overlaps: overlaps, Order: MergeOrder(active, overlaps),
		Lines: Lines(overlaps), CheckedAt: time.Now().UTC()}
	if c.Overlaps == nil {
		c.Overlaps = []run.Overlap{}
	}
	r.mu.Lock()
	prev, had := r.last[projectID]
	r.last[projectID] = c
	r.mu.Unlock()
	if r.Passed != nil {
		r.Passed(projectID, time.Since(start))
	}
	if had && sameAnswer(prev, c) {
		return
	}
	r.log.Info("radar: overlaps", "project", projectID, "pairs", len(overlaps), "took", time.Since(start))
	if r.Publish != nil {
		r.Publish(c)
	}
}

// merge merges one pair's current states and remembers the answer.
func (r *Radar) merge(ctx context.Context, a, b run.Workspace, p Pair) (pairAnswer, bool) {
	sa, sb := r.states[p.A], r.states[p.B]
	if sa == "" || sb == "" {
		return pairAnswer{}, false
	}
	if ans, ok := r.pairs[p]; ok && ans.a == sa && ans.b == sb {
		return ans, true
	}
	m, err := r.git.MergeTree(ctx, a.Path, sa, sb)
	if err != nil {
		r.log.Info("radar: a pair could not be merged", "a", p.A, "b", p.B, "err", err)
		delete(r.pairs, p)
		return pairAnswer{}, false
	}
	ans := pairAnswer{a: sa, b: sb, files: r.files(ctx, a.Path, m, sa, sb)}
	r.pairs[p] = ans
	return ans, true
}

// files are a merge's conflicted files with their hunks, bounded, each
// side's lines placed in its own file (states sa and sb).
func (r *Radar) files(ctx context.Context, dir string, m gitcmd.MergeTree, sa, sb string) []run.OverlapFile {
	if m.Clean {
		return nil
	}
	var out []run.OverlapFile
	for _, path := range m.ConflictedPaths() {
		if len(out) == maxFilesPerPair {
			break
		}
		f := run.OverlapFile{Path: path}
		if content, err := r.git.File(ctx, dir, m.Tree, path); err == nil {
			hunks := gitcmd.ConflictHunks(content)
			f.Hunks = hunksOf(hunks)
			// A side without the file at this path (deleted, renamed) or
			// past the size read gets no spans.
			if side, err := r.git.File(ctx, dir, sa, path); err == nil {
				for i, sp := range sideSpans(content, side, hunks, true) {
					if i < len(f.Hunks) {
						f.Hunks[i].ALines = sp
					}
				}
			}
			if side, err := r.git.File(ctx, dir, sb, path); err == nil {
				for i, sp := range sideSpans(content, side, hunks, false) {
					if i < len(f.Hunks) {
						f.Hunks[i].BLines = sp
					}
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// hunksOf keeps the conflicted regions of a merged file, bounded.
func hunksOf(hunks []gitcmd.ConflictHunk) []run.OverlapHunk {
	var out []run.OverlapHunk
	for _, h := range hunks {
		if len(out) == maxHunksPerFile {
			break
		}
		out = append(out, run.OverlapHunk{Start: h.Start, End: h.End, A: head(h.Ours), B: head(h.Theirs)})
	}
	return out
}

func head(lines []string) []string {
	if len(lines) > maxHunkLines {
		lines = lines[:maxHunkLines]
	}
	return append([]string{}, lines...)
}

// forget drops what the radar kept of workspaces no longer active.
func (r *Radar) forget(ids []string) {
	keep := map[string]bool{}
	for _, id := range ids {
		keep[id] = true
	}
	for id := range r.states {
		if !keep[id] {
			delete(r.states, id)
		}
	}
	for p := range r.pairs {
		if !keep[p.A] || !keep[p.B] {
			delete(r.pairs, p)
		}
	}
}

// Active are the workspaces the radar compares: the ready worktrees the
// app made, oldest first.
func Active(list []run.Workspace) []run.Workspace {
	var out []run.Workspace
	for _, w := range list {
		if w.ID != "" && w.Origin == "" && w.Kind == "worktree" && w.State == "ready" {
			out = append(out, w)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// sameAnswer: nothing a reader shows moved (CheckedAt aside).
func sameAnswer(a, b run.Conflicts) bool {
	a.CheckedAt, b.CheckedAt = time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}
