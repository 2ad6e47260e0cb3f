package radar

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// blockingGit's State waits for release while armed and counts each
// workspace's takes; its merges are clean.
type blockingGit struct {
	mu      sync.Mutex
	takes   map[string]int
	merges  int
	entered chan struct{}
	release chan struct{}
}

func (g *blockingGit) State(ctx context.Context, path string) (string, error) {
	g.mu.Lock()
	g.takes[path]++
	n := g.takes[path]
	entered, release := g.entered, g.release
	g.entered = nil
	g.mu.Unlock()
	if entered != nil {
		close(entered)
		<-release
	}
	return path + "@" + string(rune('0'+n)), nil
}

func (g *blockingGit) MergeTree(context.Context, string, string, string) (gitcmd.MergeTree, error) {
	g.mu.Lock()
	g.merges++
	g.mu.Unlock()
	return gitcmd.MergeTree{Clean: true}, nil
}

func (g *blockingGit) File(context.Context, string, string, string) (string, error) { return "", nil }

// Changes that arrive during a pass make exactly one more pass, which
// re-takes only the workspace that changed and merges only its pairs; the
// doors never wait for the pass.
func TestRadarCoalescesChangesDuringAPass(t *testing.T) {
	src := &fakeSource{ws: map[string][]run.Workspace{}, sessions: map[string]string{}}
	for i, id := range []string{"a", "b", "c"} {
		src.add("p", run.Workspace{ID: id, ProjectID: "p", Kind: "worktree", State: "ready", Path: "/" + id,
			CreatedAt: time.Unix(int64(i), 0)})
		src.session("ses-"+id, id)
	}
	g := &blockingGit{takes: map[string]int{}, entered: make(chan struct{}), release: make(chan struct{})}
	entered := g.entered
	rad := New(src, g, nil)
	passes := make(chan string, 8)
	rad.Passed = func(p string, _ time.Duration) { passes <- p }
	running(t, rad)

	rad.Project("p")
	<-entered // the first pass is taking "a"
	start := time.Now()
	for i := 0; i < 5; i++ {
		rad.FilesChanged("p", "ses-b")
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("marking changes waited %v for the pass", d)
	}
	close(g.release)
	<-passes
	<-passes
	select {
	case p := <-passes:
		t.Fatalf("a third pass over %s", p)
	case <-time.After(200 * time.Millisecond):
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.takes["/a"] != 1 || g.takes["/b"] != 2 || g.takes["/c"] != 1 {
		t.Fatalf("takes = %v, want a once, b twice, c once", g.takes)
	}
	if g.merges != 3+2 {
		t.Fatalf("merges = %d, want 3 then b's 2 pairs", g.merges)
	}
}

// A project with one worktree has nothing to compare: nothing is taken,
// and the answer (no overlaps, the one workspace in the order) is told.
func TestRadarLoneWorktreeTakesNothing(t *testing.T) {
	src := &fakeSource{ws: map[string][]run.Workspace{}, sessions: map[string]string{}}
	src.add("p", run.Workspace{ID: "a", ProjectID: "p", Kind: "worktree", State: "ready", Path: "/a"})
	g := &blockingGit{takes: map[string]int{}}
	rad := New(src, g, nil)
	answers := running(t, rad)
	rad.Project("p")
	if c := next(t, answers); len(c.Overlaps) != 0 || len(c.Order) != 1 {
		t.Fatalf("answer %+v", c)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.takes) != 0 {
		t.Fatalf("took %v", g.takes)
	}
}

// workspace.changed marks a workspace only when its state moved: a setup's
// streamed output (the same state, again and again) makes no pass.
func TestRadarWorkspaceChangedOnlyOnStateMoves(t *testing.T) {
	src := &fakeSource{ws: map[string][]run.Workspace{}, sessions: map[string]string{}}
	g := &blockingGit{takes: map[string]int{}}
	rad := New(src, g, nil)
	passes := make(chan string, 8)
	rad.Passed = func(p string, _ time.Duration) { passes <- p }
	w := run.Workspace{ID: "a", ProjectID: "p", Kind: "worktree", State: "ready"}
	rad.WorkspaceChanged(w)
	rad.passAll(context.Background())
	<-passes
	w.SetupOutput = "npm install…"
	rad.WorkspaceChanged(w)
	rad.WorkspaceChanged(w)
	rad.mu.Lock()
	marked := len(rad.dirty)
	rad.mu.Unlock()
	if marked != 0 {
		t.Fatalf("the same state again marked %d projects", marked)
	}
	w.State = "archived"
	rad.WorkspaceChanged(w)
	rad.mu.Lock()
	defer rad.mu.Unlock()
	if !rad.dirty["p"]["a"] {
		t.Fatal("archiving the workspace did not mark it")
	}
}
