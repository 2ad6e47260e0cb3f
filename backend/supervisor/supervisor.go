// Package supervisor starts a shim per run, tracks it, routes controls to
// it, fans its live events out to observers, and re-adopts live shims (or
// fences and closes dead ones) when main starts and whenever a shim's
// connection drops (docs/ARCHITECTURE.md §Processes, §Fencing, §Durability).
//
// There is one supervisor per data dir, enforced by an exclusive lock on
// <datadir>/supervisor.lock. Shims are detached: closing (or killing) the
// supervisor never stops a run; only Cancel does.
//
// Use: New (takes the lock), Recover (adopts what outlived the previous
// supervisor), then Start, Watch and the controls (Cancel, Approve,
// Clarify, Queue, SetModel), which answer with run.ControlResult; Close
// detaches from the shims without stopping them.
//
// Warm agents: a shim whose run completed keeps its agent for the
// session's next run until an idle timeout (WarmIdle). Starting a run
// first offers it to the session's warm shim (warm.go); on any failure a
// fresh shim starts, which resumes the agent's own session through the
// native session id stored on the session. Warm shims run no run, so they
// do not count against MaxConcurrent.
package supervisor

import (
	"context"
	"errors"
	"fmt"
	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// Sentinel errors callers branch on.
var (
	// ErrAlreadyRunning: another process is the supervisor of this data dir.
	ErrAlreadyRunning = errors.New("supervisor: another supervisor owns this data dir")
	// ErrNotFound: no such run (or session).
	ErrNotFound = errdefs.ErrNotFound
	// ErrConflict: a client_request_id reused with a different message.
	ErrConflict = errdefs.ErrConflict
	// ErrClosed: the supervisor was closed.
	ErrClosed = errdefs.ErrClosed
)

// LockFile is the supervisor's lock in the data dir.
const LockFile = "supervisor.lock"

// AgentConfigFunc resolves an agent's adapter config (defaults merged with
// the person's settings); backend/agents provides it.
type AgentConfigFunc func(ctx context.Context, agent string) (adapter.Config, error)

// Config configures a Supervisor. Zero durations take docs/ARCHITECTURE.md §API's
// defaults.
type Config struct {
	DataDir string
	// DBPath is the journal the shims open (the Store's file).
	DBPath string
	Store  Store
	// Executable is the hermesdesk binary to run shims from; default the
	// running program. A per-version copy is made in <datadir>/bin/.
	Executable string
	// MaxConcurrent caps running runs across sessions (default 4); extra
	// runs stay queued. The setting SettingMaxConcurrent, when set,
	// overrides it.
	MaxConcurrent int
	// AgentConfig resolves per-agent adapter config; nil resolves it with
	// agents.Resolve from the Store's settings ("agents.<name>").
	AgentConfig    AgentConfigFunc
	StartTimeout   time.Duration // shim start-up (10 s)
	ControlTimeout time.Duration // one control call (5 s)
	CancelGrace    time.Duration // SIGTERM → SIGKILL (5 s)
	// WarmIdle is how long a shim keeps its agent warm after a run for
	// the session's next one (0: control.DefaultWarmIdle, 10 min; negative:
	// never, every run starts its agent afresh).
	WarmIdle time.Duration
	// MaxWarm caps how many shims keep their agent warm at once, across
	// sessions; the least recently used retire first. 0 takes the default
	// (4); the setting SettingMaxWarm, when set, overrides it (0 there:
	// no warm agents).
	MaxWarm int
	// Env is the shims' environment; nil inherits this process's.
	Env []string
	// Workspace, when set, gives the folder a session's runs work in and
	// the environment they get on top of the agent's (its worktree and
	// HERMESDESK_WORKSPACE_*; docs/ARCHITECTURE.md §Workspaces). dir ""
	// is the project's folder.
	Workspace func(ctx context.Context, ses run.Session) (dir string, env []string, err error)
	// DataDirCheck, when set, is asked before a run is accepted or
	// launched; while it fails (the data folder deleted, the database
	// read-only, the disk full) new runs are refused with its error and
	// queued runs wait (backend/datadir).
	DataDirCheck interface{ Check() error }
	Log          *slog.Logger
	// OnCheck, when set, is told each decision about a followed run whose
	// shim connection dropped or whose bootstrap did not come (live: the
	// shim still holds the run's lock and stays followed). Tests wait on
	// it instead of sleeping past a timeout.
	OnCheck func(runID string, live bool)
}

func (c *Config) defaults() error {
	if c.DataDir == "" || !filepath.IsAbs(c.DataDir) {
		return errors.New("supervisor: DataDir must be an absolute path")
	}
	if c.Store == nil {
		return errors.New("supervisor: Store is required")
	}
	if c.DBPath == "" {
		return errors.New("supervisor: DBPath is required")
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = 4
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = 10 * time.Second
	}
	if c.ControlTimeout <= 0 {
		c.ControlTimeout = 5 * time.Second
	}
	if c.MaxWarm <= 0 {
		c.MaxWarm = DefaultMaxWarm
	}
	if c.CancelGrace <= 0 {
		c.CancelGrace = run.DefaultCancelGrace
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.AgentConfig == nil {
		store := c.Store
		c.AgentConfig = func(ctx context.Context, agent string) (adapter.Config, error) {
			return agents.Resolve(ctx, agent, store.Setting)
		}
	}
	return nil
}

// Supervisor is the data dir's one run supervisor.
type Supervisor struct {
	cfg  Config
	log  *slog.Logger
	lock *control.Lock
	exe  string

	ctx    context.Context // ends at Close; parent of every follower
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// schedMu serializes decisions that launch or end runs without a shim
	// (scheduling, cancelling a queued run, recovery), so a run is never
	// launched twice or ended while launching.
	schedMu sync.Mutex
	// preparing counts Starts between submitting a run and writing its
	// spec (see schedule).
	preparing atomic.Int32
	// park is the parked runs' timer and resume requests (park.go).
	park parkState
	// causes remembers, per run, why its dead shim's run must end when the
	// first attempt to close it failed (deathReason).
	causes sync.Map
	// capWarmMu keeps two followers from retiring warm shims over each
	// other (capWarm).
	capWarmMu sync.Mutex

	tap atomic.Pointer[func(run.Event)] // see TapEvents

	mu      sync.Mutex
	tracked map[string]*tracked
	hubs    map[string]*runHub
	closed  bool
}

// New takes the data dir's supervisor lock and prepares the shim binary.
// Call Recover next to adopt runs that outlived the previous supervisor.
func New(cfg Config) (*Supervisor, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("supervisor: %w", err)
	}
	lock, err := control.TryLock(filepath.Join(cfg.DataDir, LockFile))
	if errors.Is(err, control.ErrLocked) {
		return nil, ErrAlreadyRunning
	}
	if err != nil {
		return nil, fmt.Errorf("supervisor: %w", err)
	}
	exe := cfg.Executable
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			lock.Unlock()
			return nil, fmt.Errorf("supervisor: own executable: %w", err)
		}
	}
	shimExe, err := versionedCopy(cfg.DataDir, exe)
	if err != nil {
		lock.Unlock()
		return nil, fmt.Errorf("supervisor: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Supervisor{
		cfg: cfg, log: cfg.Log, lock: lock, exe: shimExe,
		ctx: ctx, cancel: cancel,
		tracked: map[string]*tracked{}, hubs: map[string]*runHub{},
	}, nil
}

// Close stops following shims and releases the lock. Shims and their runs
// go on; the next supervisor re-adopts them.
func (s *Supervisor) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.stopParkTimer()
	s.cancel()
	s.wg.Wait()
	s.mu.Lock()
	for _, h := range s.hubs {
		h.closeAll()
	}
	s.mu.Unlock()
	return s.lock.Unlock()
}

// dataDirProblem is DataDirCheck's verdict (nil: fine, or no check).
func (s *Supervisor) dataDirProblem() error {
	if s.cfg.DataDirCheck == nil {
		return nil
	}
	if err := s.cfg.DataDirCheck.Check(); err != nil {
		return fmt.Errorf("supervisor: %w", err)
	}
	return nil
}

func (s *Supervisor) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// go_ runs f as a tracked background task unless the supervisor is closed.
func (s *Supervisor) go_(f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
	return true
}
