package workspaces

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Store is the journal the workspaces are kept in.
type Store interface {
	GetProject(ctx context.Context, id string) (run.Project, error)
	CreateWorkspace(ctx context.Context, w run.Workspace) (run.Workspace, error)
	GetWorkspace(ctx context.Context, id string) (run.Workspace, error)
	ListWorkspaces(ctx context.Context, projectID string) ([]run.Workspace, error)
	UpdateWorkspace(ctx context.Context, w run.Workspace) (run.Workspace, error)
	WorkspaceRunLive(ctx context.Context, workspaceID string) (bool, error)
	SessionWorkspace(ctx context.Context, sessionID string) (string, error)
	SetSessionWorkspace(ctx context.Context, sessionID, workspaceID string) error
}

// DefaultRetention is how long an archived snapshot is kept.
const DefaultRetention = 30 * 24 * time.Hour

// Manager makes, checks, archives, restores and prunes workspaces
// (docs/ARCHITECTURE.md §Workspaces). One operation runs at a time: they
// are rare and each is a few git commands.
type Manager struct {
	store Store
	git   Git
	log   *slog.Logger
	mu    sync.Mutex

	// Changed, when set, hears every workspace written (the watch bus).
	Changed func(run.Workspace)
	// Retention: archives older than it are pruned (0: DefaultRetention).
	Retention time.Duration
	// DataRoot, when set, says where new worktrees go: "" in the
	// repository (<repo>/.worktrees), else that folder of the data dir
	// (setting workspaces.location "data"; the stack reads it).
	DataRoot func(ctx context.Context) string
	// NoSetup skips the setup step after creation (tests of creation alone).
	NoSetup bool
	// setups are the setup steps running (Wait waits for them).
	setups sync.WaitGroup

	// step, in tests, is called after each creation step ("claimed",
	// "added", "created", "locked"): the kill -9 test stops there.
	step func(string)
}

// New returns a Manager over store and git (nil: RealGit).
func New(store Store, git Git, log *slog.Logger) *Manager {
	if git == nil {
		git = RealGit()
	}
	if log == nil {
		log = slog.Default()
	}
	return &Manager{store: store, git: git, log: log}
}

func (m *Manager) at(step string) {
	if m.step != nil {
		m.step(step)
	}
}

func (m *Manager) save(ctx context.Context, w run.Workspace) (run.Workspace, error) {
	w, err := m.store.UpdateWorkspace(ctx, w)
	if err != nil {
		return w, fmt.Errorf("the workspace could not be recorded: %w", err)
	}
	if m.Changed != nil {
		m.Changed(w)
	}
	return w, nil
}

// Create makes a worktree workspace of project projectID from base ("" =
// the checkout's current branch): claimed in the journal first, then
// `git worktree add -b`, then `git worktree lock`. Refusals say why and
// leave nothing behind.
func (m *Manager) Create(ctx context.Context, projectID, base string) (run.Workspace, error) {
	return m.CreateWith(ctx, projectID, base, "", nil)
}

// CreateWith is Create with the branch named after title (BranchFor; ""
// keeps the id's name) and prepare run on the ready worktree before its
// setup step starts: a fork's files are laid over it first, so the setup
// script sees them (docs/ARCHITECTURE.md §Checkpoints). When prepare
// fails the worktree is kept (never destroy), not set up, and the error
// returned with it.
func (m *Manager) CreateWith(ctx context.Context, projectID, base, title string, prepare func(context.Context, run.Workspace) error) (run.Workspace, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	proj, err := m.store.GetProject(ctx, projectID)
	if err != nil {
		return run.Workspace{}, err
	}
	repo, err := m.git.Inspect(ctx, proj.Workspace, base)
	if err != nil {
		return run.Workspace{}, fmt.Errorf("the project's repository could not be read: %w", err)
	}
	if err := CanCreate(repo.Facts); err != nil {
		return run.Workspace{}, err
	}
	id := NewID()
	dataRoot := ""
	if m.DataRoot != nil {
		dataRoot = m.DataRoot(ctx)
	}
	names, err := NamesFor(repo.Top, id, dataRoot)
	if err != nil {
		return run.Workspace{}, err
	}
	// Decided once and recorded in the claim below: a retry after a crash
	// reads the row's branch, whatever branches appeared since.
	var lookErr error
	names.Branch, err = BranchFor(title, id, func(b string) bool {
		c, err := m.git.ResolveRef(ctx, repo.Top, "refs/heads/"+b)
		lookErr = err
		return c != "" || err != nil
	})
	if err != nil {
		return run.Workspace{}, err
	}
	if lookErr != nil {
		m.log.Warn("workspaces: could not tell whether a branch exists; the id names it", "branch", names.Branch, "err", lookErr)
	}
	if dataRoot == "" {
		if err := ensureExcluded(repo.CommonDir); err != nil {
			return run.Workspace{}, err
		}
	}
	port, err := m.freePorts(ctx)
	if err != nil {
		return run.Workspace{}, err
	}
	w, err := m.store.CreateWorkspace(ctx, run.Workspace{ID: id, ProjectID: projectID, Kind: KindWorktree, State: StateClaimed,
		Path: names.Path, Branch: names.Branch, Base: repo.Base, BaseCommit: repo.BaseCommit, Port: port})
	if err != nil {
		return run.Workspace{}, fmt.Errorf("the workspace could not be recorded: %w", err)
	}
	m.at(StateClaimed)
	w, err = m.finish(ctx, w, repo.Top)
	if err != nil {
		m.log.Warn("workspace creation failed; rolling back", "workspace", id, "err", err)
		if rb, rerr := m.rollBack(context.WithoutCancel(ctx), w, repo.Top, "Creation failed: "+err.Error()); rerr == nil {
			w = rb
		}
		return w, fmt.Errorf("the worktree could not be made: %w", err)
	}
	if prepare != nil {
		if err := prepare(ctx, w); err != nil {
			return w, err
		}
	}
	if !m.NoSetup {
		// The setup step runs on its own: a long npm install does not hold
		// up the request, and the workspace is usable meanwhile.
		m.setups.Add(1)
		go func() {
			defer m.setups.Done()
			m.RunSetup(context.WithoutCancel(ctx), w, repo.Top)
		}()
	}
	return w, nil
}

// Wait waits for the setup steps started so far.
func (m *Manager) Wait() { m.setups.Wait() }

// freePorts picks the workspace's block of ports: one no other workspace
// holds and nothing listens on now.
func (m *Manager) freePorts(ctx context.Context) (int, error) {
	all, err := m.store.ListWorkspaces(ctx, "")
	if err != nil {
		return 0, err
	}
	var used []int
	for _, w := range all {
		if w.Port > 0 && w.State != StateFailed && w.State != StateGone {
			used = append(used, w.Port)
		}
	}
	return pickPorts(used, portLow, portHigh, portFree), nil
}

// finish takes a claimed or created workspace to ready. Each step is
// idempotent: a worktree already listed is not added again.
func (m *Manager) finish(ctx context.Context, w run.Workspace, top string) (run.Workspace, error) {
	if w.State == StateClaimed {
		wt, err := m.find(ctx, top, w.Path)
		if err != nil {
			return w, err
		}
		if wt == nil {
			// From the recorded commit, not the branch name: a retry makes
			// the same worktree whatever the base branch did since.
			if err := m.git.AddWorktree(ctx, top, w.Path, w.Branch, w.BaseCommit); err != nil {
				return w, err
			}
		}
		m.at("added")
		w.State = StateCreated
		if w, err = m.save(ctx, w); err != nil {
			return w, err
		}
		m.at(StateCreated)
	}
	wt, err := m.find(ctx, top, w.Path)
	if err != nil {
		return w, err
	}
	if wt == nil {
		return w, fmt.Errorf("git does not list the new worktree at %s", w.Path)
	}
	if !wt.Locked {
		if err := m.git.Lock(ctx, top, w.Path, LockReason(w.ID)); err != nil {
			return w, err
		}
	}
	m.at("locked")
	w.State = StateReady
	return m.save(ctx, w)
}

// find returns git's entry for the worktree at path, nil when git lists
// none there.
func (m *Manager) find(ctx context.Context, top, path string) (*gitcmd.Worktree, error) {
	wts, err := m.git.Worktrees(ctx, top)
	if err != nil {
		return nil, fmt.Errorf("the repository's worktrees could not be listed: %w", err)
	}
	return findIn(wts, path), nil
}

// findIn finds path in wts: by its name first, then through symlinks (a
// repository opened through a linked folder).
func findIn(wts []gitcmd.Worktree, path string) *gitcmd.Worktree {
	for i := range wts {
		if filepath.Clean(wts[i].Path) == filepath.Clean(path) {
			return &wts[i]
		}
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	for i := range wts {
		if r, err := filepath.EvalSymlinks(wts[i].Path); err == nil && r == real {
			return &wts[i]
		}
	}
	return nil
}

func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// top is the main checkout of w's project.
func (m *Manager) top(ctx context.Context, w run.Workspace) (string, error) {
	proj, err := m.store.GetProject(ctx, w.ProjectID)
	if err != nil {
		return "", err
	}
	repo, err := m.git.Inspect(ctx, proj.Workspace, "HEAD")
	if err != nil {
		return "", err
	}
	if repo.Top == "" {
		return "", fmt.Errorf("the project's folder %s is no longer a git repository: %w", proj.Workspace, ErrRefused)
	}
	return repo.Top, nil
}

// ForSession is where a session's runs work and the environment they get
// (supervisor.Config.Workspace): "" for a session in the project's
// checkout. A worktree that is not ready (archived, gone, half made) is
// refused with what happened to it, rather than the run silently working
// in the checkout.
func (m *Manager) ForSession(ctx context.Context, ses run.Session) (string, []string, error) {
	id, err := m.store.SessionWorkspace(ctx, ses.ID)
	if err != nil || id == "" {
		return "", nil, err
	}
	w, err := m.Check(ctx, id)
	if err != nil {
		return "", nil, err
	}
	if w.Kind != KindWorktree {
		return w.Path, nil, nil
	}
	if w.State != StateReady {
		msg := fmt.Sprintf("the session's worktree is %s", w.State)
		if w.Note != "" {
			msg += ": " + w.Note
		}
		if w.State == StateArchived {
			msg += " Restore it to run here."
		}
		return "", nil, refused(msg)
	}
	return w.Path, Env(w), nil
}
