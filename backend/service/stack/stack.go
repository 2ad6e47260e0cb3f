// Package stack assembles the whole backend for one data dir — journal,
// supervisor, agent registry and service — so the desktop app and
// `hermesdesk serve` wire it identically, in one call.
package stack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/clock"
	"github.com/hermesdesk/hermesdesk/backend/datadir"
	"github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/review"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/schedule"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
	"github.com/hermesdesk/hermesdesk/backend/workspaces"
)

// DBFile is the journal's file name in the data dir.
const DBFile = "hermesdesk.db"

// ErrAlreadyRunning: another process (the app or `serve`) is this data
// dir's supervisor; talk to it over its local socket instead.
var ErrAlreadyRunning = supervisor.ErrAlreadyRunning

// Options configure Open.
type Options struct {
	DataDir string
	// Executable is the hermesdesk binary (shims, the demo agent);
	// default the running program.
	Executable string
	Log        *slog.Logger
	// Follow tunes event streams (tests make them tiny).
	Follow service.FollowOptions
	// WarmIdle is how long a shim keeps its agent for the session's next
	// run (0: 10 minutes; negative: never, every run starts its agent).
	WarmIdle time.Duration
	// Clock is the scheduler's clock (nil: the real one, or the test
	// offset of schedule.ClockOffsetEnv).
	Clock schedule.Clock
}

// Stack is an open backend. Close it to release the supervisor lock; runs
// go on in their shims.
type Stack struct {
	Journal    *journal.Store
	Supervisor *supervisor.Supervisor
	Service    *service.Service
	// Scheduler fires schedules in this process, the data dir's
	// supervisor, whether or not a window is open.
	Scheduler *schedule.Scheduler
	DataDir   string
	// Hosts are the remote hosts (nil when their ssh folder could not be
	// made; docs/ARCHITECTURE.md §Hosts).
	Hosts *hosts.Service

	stopMaintenance func()
	guard           *datadir.Guard
	log             *slog.Logger
	workspaces      *workspaces.Manager
	stopRadar       func()
}

// UploadsDir is the data dir's folder of files sent through
// POST /api/uploads (attachments from clients without a path).
const UploadsDir = "uploads"

// Open opens the journal, becomes the data dir's supervisor (or returns
// ErrAlreadyRunning), re-adopts live runs and closes dead ones, and
// returns the service over them.
func Open(ctx context.Context, o Options) (*Stack, error) {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Executable == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("own executable: %w", err)
		}
		o.Executable = exe
	}
	if err := paths.Ensure(o.DataDir); err != nil {
		return nil, err
	}
	dbPath := filepath.Join(o.DataDir, DBFile)
	j, err := journal.Open(dbPath, journal.Options{})
	if err != nil {
		return nil, err
	}
	// A checkpoint a crash cut short is finished or dropped before any run
	// starts (docs/ARCHITECTURE.md §Checkpoints).
	if err := checkpoints.Recover(ctx, j); err != nil {
		o.Log.Warn("stack: checkpoint recovery", "err", err)
	}
	guard, err := datadir.Open(o.DataDir, dbPath)
	if err != nil {
		j.Close()
		return nil, err
	}
	// The workspaces (docs/ARCHITECTURE.md §Workspaces): half-made ones
	// are finished or rolled back, and changes outside the app noticed,
	// before any run starts in one.
	wsm := workspaces.New(j, nil, o.Log.With("component", "workspaces"))
	wsm.DataRoot = worktreesRoot(j, o.DataDir)
	if err := wsm.RecoverAll(ctx); err != nil {
		o.Log.Warn("stack: workspaces recovery", "err", err)
	}
	sup, err := supervisor.New(supervisor.Config{
		DataDir: o.DataDir, DBPath: dbPath, Store: j, Executable: o.Executable, Log: o.Log,
		WarmIdle: o.WarmIdle, DataDirCheck: guard, Workspace: wsm.ForSession,
		AgentConfig: func(ctx context.Context, agent string) (adapterConfig, error) {
			return agents.Resolve(ctx, agent, j.Setting)
		},
	})
	if err != nil {
		guard.Close()
		j.Close()
		return nil, err
	}
	if err := sup.Recover(ctx); err != nil {
		o.Log.Warn("stack: recovery", "err", err)
	}
	reg := agents.Default(agents.Config{Executable: o.Executable})
	svc := service.New(j, sup, Agents{Registry: reg, Setting: j.Setting, Settings: j.GetSettings}, service.Options{
		Log: o.Log, Follow: o.Follow, Warm: sup, Guard: guard,
		Uploads: filepath.Join(o.DataDir, UploadsDir),
	})
	if o.Clock == nil {
		o.Clock = schedule.ClockFromEnv()
	}
	sch := schedule.New(schedule.Config{Store: j, Starter: firer{svc: svc, j: j}, Clock: o.Clock,
		Log: o.Log.With("component", "scheduler")})
	svc.SetSchedules(j, sch)
	rad, stopRadar := startRadar(j, svc, o.Log)
	wsm.Changed = func(w run.Workspace) { svc.WorkspaceChanged(w); rad.WorkspaceChanged(w) }
	svc.SetWorkspaces(wsm)
	svc.SetCheckpoints(j, o.DataDir)
	svc.SetReview(&review.Reviewer{Store: j, DataDir: o.DataDir, Log: o.Log.With("component", "review")})
	hs := openHosts(j, svc, o)
	sch.Start(ctx)
	st := &Stack{Journal: j, Supervisor: sup, Service: svc, Scheduler: sch, DataDir: o.DataDir, guard: guard, log: o.Log,
		workspaces: wsm, stopRadar: stopRadar, Hosts: hs}
	st.stopMaintenance = maintain(j, clock.Real{}, o.Log,
		func(ctx context.Context) { pruneArchives(ctx, j, wsm, o.Log) },
		func(ctx context.Context) {
			if n, err := svc.PruneCheckpoints(ctx); err != nil {
				o.Log.Warn("checkpoint retention", "err", err)
			} else if n > 0 {
				o.Log.Info("retention removed old checkpoints", "count", n)
			}
		})
	return st, nil
}

// retireOnClose bounds how long Close waits for idle warm agents to agree
// to close (each answers in milliseconds).
const retireOnClose = 3 * time.Second

// Close stops following runs (they go on in their shims, and the next
// start re-adopts them) and closes the journal. Idle warm agents are
// closed: one waiting for a next message nobody can send while no
// supervisor runs would only hold memory (`serve` stopped with SIGTERM or
// Ctrl-C, the app quitting).
func (s *Stack) Close() error { return s.close(true) }

// CloseLeavingWarm is Close for a handover: idle warm agents stay up for
// the next supervisor, which adopts them like any live shim
// (docs/ARCHITECTURE.md §Processes).
func (s *Stack) CloseLeavingWarm() error { return s.close(false) }

func (s *Stack) close(retireWarm bool) error {
	s.Service.CloseWatchers() // watchers reconnect to whoever takes over
	s.Service.StopHistoryMirrors()
	s.Scheduler.Close()
	if retireWarm {
		ctx, cancel := context.WithTimeout(context.Background(), retireOnClose)
		n := s.Supervisor.RetireWarm(ctx, "")
		cancel()
		if n > 0 {
			s.log.Info("closed idle warm agents", "count", n)
		}
	}
	s.stopMaintenance()
	s.stopRadar()
	return errors.Join(s.Supervisor.Close(), s.Journal.Close(), s.guard.Close())
}

// maintenanceEvery is how often retention runs while the app is up;
// maintenanceFirst how soon after start it first runs, off the start-up
// path, when retention is on.
const (
	maintenanceEvery = 6 * time.Hour
	maintenanceFirst = 30 * time.Second
)

// retention is what maintain needs of the journal.
type retention interface {
	RetentionDays(ctx context.Context) (float64, error)
	ApplyRetention(ctx context.Context) (journal.CompactStats, error)
}

// maintain applies the retention setting (off unless "retention_days" is
// set) soon after start and then every 6 h, with the other passes
// (archived worktrees, checkpoints: their own settings) after it. With
// retention off (the default) it arms only the 6-hour timer: an idle core
// wakes for nothing in its first minute (docs/ARCHITECTURE.md §Idle; the
// pass 30 s after start was the ~60 wake-ups that made an idle core's
// first minute look busy). It returns a function that stops it and waits
// for a pass in flight.
func maintain(j retention, clk clock.Clock, log *slog.Logger, passes ...func(context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		first := maintenanceEvery
		if days, err := j.RetentionDays(ctx); err != nil {
			log.Warn("retention", "err", err)
		} else if days > 0 {
			first = maintenanceFirst
		}
		t := clk.NewTimer(first)
		for {
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C():
			}
			if st, err := j.ApplyRetention(ctx); err != nil {
				log.Warn("retention", "err", err)
			} else if st != (journal.CompactStats{}) {
				log.Info("retention compacted old runs", "stats", st)
			}
			for _, pass := range passes {
				pass(ctx)
			}
			t = clk.NewTimer(maintenanceEvery)
		}
	}()
	return func() { cancel(); <-done }
}

// The journal remembers agents' settings for a new session, which the
// service answers before a session's first run (docs/ARCHITECTURE.md
// §Session config options).
var _ service.AgentConfigReader = (*journal.Store)(nil)

// worktreesRoot is the manager's DataRoot, read at each creation: the
// data dir's worktrees folder when service.SettingWorktreeLocation says
// "data", else "" (in the repository; docs/ARCHITECTURE.md §Workspaces).
func worktreesRoot(j *journal.Store, dataDir string) func(context.Context) string {
	return func(ctx context.Context) string {
		raw, ok, err := j.Setting(ctx, service.SettingWorktreeLocation)
		var where string
		if err != nil || !ok || json.Unmarshal(raw, &where) != nil || where != workspaces.LocationData {
			return ""
		}
		return filepath.Join(dataDir, "worktrees")
	}
}

// SettingArchiveDays is how many days an archived workspace's snapshot is
// kept (default 30; docs/ARCHITECTURE.md §Workspaces).
const SettingArchiveDays = "workspaces.archive_days"

// pruneArchives drops the archived workspaces' snapshots older than the
// setting; never a live worktree.
func pruneArchives(ctx context.Context, j *journal.Store, wsm *workspaces.Manager, log *slog.Logger) {
	wsm.Retention = 0
	if raw, ok, err := j.Setting(ctx, SettingArchiveDays); err == nil && ok {
		var days int
		if json.Unmarshal(raw, &days) == nil && days > 0 {
			wsm.Retention = time.Duration(days) * 24 * time.Hour
		}
	}
	if n, err := wsm.Prune(ctx, time.Now()); err != nil {
		log.Warn("workspaces: pruning archives", "err", err)
	} else if n > 0 {
		log.Info("workspaces: pruned old archives", "count", n)
	}
}
