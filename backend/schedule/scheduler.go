package schedule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The loop that fires schedules (docs/ARCHITECTURE.md §Schedules). It runs
// in the data dir's supervisor, whatever process that is, and sleeps on
// one timer until the earliest due time: nothing polls the database.

// Store is what the scheduler reads and writes in the journal.
type Store interface {
	ListSchedules(ctx context.Context) ([]Schedule, error)
	GetSchedule(ctx context.Context, id string) (Schedule, error)
	SetScheduleSession(ctx context.Context, id, sessionID string) error
	AddFiring(ctx context.Context, f Firing, cursor *time.Time) (Firing, error)
	FinishFiring(ctx context.Context, id int64, outcome Outcome, runID, sessionID, reason string) error
	LastRunFiring(ctx context.Context, scheduleID string) (Firing, bool, error)
	StartingFirings(ctx context.Context) ([]Firing, error)
}

// Starter is the service's ordinary run path: a firing is a run like any
// other (journaled, watched, notified, cancellable). Errors carry a
// message safe to show a person (Error()).
type Starter interface {
	CreateSession(ctx context.Context, projectID, title, agent, model string) (sessionID string, err error)
	SessionExists(ctx context.Context, id string) (bool, error)
	StartRun(ctx context.Context, req run.StartRequest) (run.StartResult, error)
	RunActive(ctx context.Context, runID string) (bool, error)
}

// SanityWake caps each sleep. Go timers count on the monotonic clock, which
// stops while the machine is suspended and ignores changes to the wall
// clock, so a timer armed for 9:00 before a suspend would fire late by the
// length of the suspend. Waking at least this often bounds that lateness;
// the wake itself only recomputes due times from memory (no database read
// unless something is due). A per-OS wall-clock timer (Linux timerfd with
// TFD_TIMER_CANCEL_ON_SET) could replace it.
const SanityWake = time.Minute

// Config configures a Scheduler.
type Config struct {
	Store   Store
	Starter Starter
	Clock   Clock // default RealClock
	Log     *slog.Logger
}

// Scheduler fires due schedules. Start it once; Changed re-arms it.
type Scheduler struct {
	cfg  Config
	log  *slog.Logger
	kick chan struct{}

	mu        sync.Mutex // one firing decision at a time (loop and run-now)
	cache     []Schedule
	dirty     bool
	nextDue   time.Time
	wakes     atomic.Int64
	jumps     atomic.Int64
	cancel    context.CancelFunc
	done      chan struct{}
	startOnce sync.Once
	onChange  atomic.Pointer[func()]
}

// OnChange sets what is told after the scheduler recorded a firing
// (fired, skipped, missed, failed to start): the service puts it on the
// watch bus, so the Schedules view's next and last run follow.
func (s *Scheduler) OnChange(fn func()) { s.onChange.Store(&fn) }

func (s *Scheduler) changed() {
	if fn := s.onChange.Load(); fn != nil {
		(*fn)()
	}
}

// New returns a scheduler; Start runs it.
func New(cfg Config) *Scheduler {
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Scheduler{cfg: cfg, log: cfg.Log, kick: make(chan struct{}, 1), dirty: true, done: make(chan struct{})}
}

// Now is the scheduler's clock (tests shift it).
func (s *Scheduler) Now() time.Time { return s.cfg.Clock.Now() }

// Start finishes firings a previous supervisor left half-started, then
// runs the loop until Close.
func (s *Scheduler) Start(ctx context.Context) {
	s.startOnce.Do(func() {
		ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
		go func() {
			defer close(s.done)
			s.recoverStarting(ctx)
			s.loop(ctx)
		}()
	})
}

// Close stops the loop and waits for a firing in flight.
func (s *Scheduler) Close() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	<-s.done
}

// Changed says the schedules changed (created, edited, paused, deleted):
// reload and re-arm now.
func (s *Scheduler) Changed() {
	s.mu.Lock()
	s.dirty = true
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Stats are the loop's counters (the idle benchmark reads them).
type Stats struct {
	Wakes, ClockJumps int64
	NextDue           time.Time
}

func (s *Scheduler) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Wakes: s.wakes.Load(), ClockJumps: s.jumps.Load(), NextDue: s.nextDue}
}

func (s *Scheduler) loop(ctx context.Context) {
	for {
		next := s.tick(ctx)
		before := s.cfg.Clock.Now()
		// Nothing due ever (no schedule, or none enabled): no timer at
		// all, the next change kicks the loop. The sanity cap only bounds
		// how late a due time may fire after a suspend, and an idle core
		// must not wake once a minute for none (docs/ARCHITECTURE.md §Idle).
		var due <-chan time.Time
		stop := func() {}
		if !next.IsZero() {
			t := s.cfg.Clock.NewTimer(min(SanityWake, max(next.Sub(before), 0)))
			due, stop = t.C(), func() { t.Stop() }
		}
		select {
		case <-ctx.Done():
			stop()
			return
		case <-s.kick:
			stop()
		case <-due:
		}
		s.wakes.Add(1)
		after := s.cfg.Clock.Now()
		// Wall time moved differently from the monotonic clock: the
		// machine slept or the clock was set. Decisions read wall time,
		// so the next tick handles it; the log says why runs catch up.
		if jump := after.Round(0).Sub(before.Round(0)) - after.Sub(before); jump > 5*time.Second || jump < -5*time.Second {
			s.jumps.Add(1)
			s.log.Info("scheduler: the clock jumped or the machine slept", "by", jump.Round(time.Second))
		}
	}
}

// tick acts on every due schedule and returns the earliest next due time.
func (s *Scheduler) tick(ctx context.Context) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dirty {
		list, err := s.cfg.Store.ListSchedules(ctx)
		if err != nil {
			s.log.Error("scheduler: list schedules", "err", err)
			s.nextDue = s.cfg.Clock.Now().Add(SanityWake)
			return s.nextDue
		}
		s.cache, s.dirty = list, false
	}
	now := s.cfg.Clock.Now()
	var next []time.Time
	for i := range s.cache {
		sc := &s.cache[i]
		w, err := WhenOf(*sc)
		if err != nil {
			continue // validated when stored; a zone that vanished is logged once on save
		}
		d := Decide(*sc, w, now)
		if d.Kind != Wait {
			if s.act(ctx, *sc, d) {
				sc.Cursor = d.Cursor
			} else {
				// Not recorded (the journal refused): read the stored
				// cursor again next time rather than trust this one.
				s.dirty = true
			}
		}
		next = append(next, d.Next)
	}
	s.nextDue = Due(next)
	return s.nextDue
}

// act records a missed due time or fires one; false if nothing could be
// recorded (the cursor did not move).
func (s *Scheduler) act(ctx context.Context, sc Schedule, d Decision) bool {
	defer s.changed()
	cursor := d.Cursor
	switch {
	case d.Kind == Miss:
		_, err := s.cfg.Store.AddFiring(ctx, Firing{ScheduleID: sc.ID, DueAt: d.Due, Outcome: OutcomeMissed,
			Missed: d.Missed, Reason: missedReason(d.Missed, "the policy is to skip missed runs")}, &cursor)
		s.logErr("record missed firing", sc.ID, err)
		return err == nil
	case d.Missed > 0 && !d.CatchUp:
		// On time now, but earlier due times passed unseen: say so.
		_, err := s.cfg.Store.AddFiring(ctx, Firing{ScheduleID: sc.ID, DueAt: d.Due, Outcome: OutcomeMissed,
			Missed: d.Missed, Reason: missedReason(d.Missed, "")}, nil)
		s.logErr("record missed firing", sc.ID, err)
	}
	f, err := s.fire(ctx, sc, d.Due, &cursor, d.CatchUp, d.Missed, false)
	s.logErr("fire", sc.ID, err)
	return f.ID != 0
}

func missedReason(n int, policy string) string {
	what := "1 firing was"
	if n != 1 {
		what = fmt.Sprintf("%d firings were", n)
	}
	if n >= maxCount {
		what = fmt.Sprintf("more than %d firings were", maxCount)
	}
	r := what + " missed while Hermes Desk was not running, the computer slept or the clock changed"
	if policy != "" {
		r += "; " + policy
	}
	return r
}

// RunNow fires a schedule at once ("run now"), paused or not; its cursor
// does not move. The previous firing still running makes it skipped.
func (s *Scheduler) RunNow(ctx context.Context, id string) (Firing, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc, err := s.cfg.Store.GetSchedule(ctx, id)
	if err != nil {
		return Firing{}, err
	}
	defer s.changed()
	return s.fire(ctx, sc, s.cfg.Clock.Now(), nil, false, 0, true)
}

// fire starts one firing through the ordinary run path: the overlap check,
// the session, a "starting" record (with the cursor move) and then the run,
// started with a request id derived from the due time so a restart after a
// crash in between starts it once, not twice.
func (s *Scheduler) fire(ctx context.Context, sc Schedule, due time.Time, cursor *time.Time, catchUp bool, missed int, manual bool) (Firing, error) {
	f := Firing{ScheduleID: sc.ID, DueAt: due, CatchUp: catchUp, Manual: manual}
	if catchUp {
		f.Missed = missed
	}
	if prev, ok, err := s.cfg.Store.LastRunFiring(ctx, sc.ID); err != nil {
		return f, err
	} else if ok {
		active, err := s.cfg.Starter.RunActive(ctx, prev.RunID)
		if err != nil {
			return f, err
		}
		if skip, why := Overlap(prev.RunID, active); skip {
			f.Outcome, f.Reason = OutcomeSkipped, why
			return s.record(ctx, f, cursor)
		}
	}
	sessionID, err := s.session(ctx, sc, due)
	if err != nil {
		f.Outcome, f.Reason = OutcomeFailedToStart, "could not open a session: "+err.Error()
		return s.record(ctx, f, cursor)
	}
	f.Outcome, f.SessionID = OutcomeStarting, sessionID
	f.RequestID = fmt.Sprintf("sched_%s_%d", sc.ID, due.UnixNano())
	if manual {
		f.RequestID = fmt.Sprintf("sched_%s_now_%d", sc.ID, time.Now().UnixNano())
	}
	f, err = s.cfg.Store.AddFiring(ctx, f, cursor)
	if err != nil {
		return f, err
	}
	return s.start(ctx, f, sc.Prompt, sc.Model)
}

func (s *Scheduler) record(ctx context.Context, f Firing, cursor *time.Time) (Firing, error) {
	f, err := s.cfg.Store.AddFiring(ctx, f, cursor)
	f.Settle()
	return f, err
}

// start starts a recorded firing's run and records how that went.
func (s *Scheduler) start(ctx context.Context, f Firing, prompt, model string) (Firing, error) {
	res, err := s.cfg.Starter.StartRun(ctx, run.StartRequest{SessionID: f.SessionID, Message: prompt,
		ClientRequestID: f.RequestID, Model: model})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return f, err // shutting down: the restart finishes it
		}
		f.Outcome, f.Reason = OutcomeFailedToStart, err.Error()
	} else {
		f.Outcome, f.RunID, f.RunStatus = OutcomeFired, res.RunID, res.Status
	}
	if e := s.cfg.Store.FinishFiring(ctx, f.ID, f.Outcome, f.RunID, f.SessionID, f.Reason); e != nil {
		return f, e
	}
	f.Settle()
	return f, nil
}

// session is where a firing goes: the schedule's own session (made once)
// or a fresh one titled after the schedule.
func (s *Scheduler) session(ctx context.Context, sc Schedule, due time.Time) (string, error) {
	if sc.Target == TargetContinue && sc.SessionID != "" {
		ok, err := s.cfg.Starter.SessionExists(ctx, sc.SessionID)
		if err != nil {
			return "", err
		}
		if ok {
			return sc.SessionID, nil
		}
	}
	title := sc.Name
	if sc.Target != TargetContinue {
		loc, _ := LoadZone(sc.Timezone)
		title = sc.Name + " · " + due.In(loc).Format("Mon 2 Jan 15:04")
	}
	id, err := s.cfg.Starter.CreateSession(ctx, sc.ProjectID, title, sc.Agent, sc.Model)
	if err != nil {
		return "", err
	}
	if sc.Target == TargetContinue {
		if err := s.cfg.Store.SetScheduleSession(ctx, sc.ID, id); err != nil {
			return "", err
		}
		for i := range s.cache {
			if s.cache[i].ID == sc.ID {
				s.cache[i].SessionID = id
			}
		}
	}
	return id, nil
}

// recoverStarting finishes firings recorded as starting by a supervisor
// that stopped before it knew the run's id. The same request id makes the
// start idempotent: a run that was created is found, not doubled.
func (s *Scheduler) recoverStarting(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fs, err := s.cfg.Store.StartingFirings(ctx)
	if err != nil {
		s.log.Error("scheduler: list starting firings", "err", err)
		return
	}
	for _, f := range fs {
		sc, err := s.cfg.Store.GetSchedule(ctx, f.ScheduleID)
		if err != nil {
			s.logErr("recover firing", f.ScheduleID, err)
			continue
		}
		_, err = s.start(ctx, f, sc.Prompt, sc.Model)
		s.logErr("recover firing", sc.ID, err)
	}
}

func (s *Scheduler) logErr(op, id string, err error) {
	if err != nil && !errors.Is(err, context.Canceled) {
		s.log.Error("scheduler: "+op, "schedule", id, "err", err)
	}
}
