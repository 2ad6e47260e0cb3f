package schedule

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakeclock"
)

// memStore and fakeStarter are the scheduler's Store and Starter in memory.
type memStore struct {
	mu      sync.Mutex
	scheds  map[string]Schedule
	firings []Firing
	failAdd int // refuse this many AddFiring calls (a full disk)
}

func (m *memStore) ListSchedules(context.Context) ([]Schedule, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Schedule
	for _, s := range m.scheds {
		out = append(out, s)
	}
	return out, nil
}
func (m *memStore) GetSchedule(_ context.Context, id string) (Schedule, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.scheds[id]
	if !ok {
		return s, errors.New("not found")
	}
	return s, nil
}
func (m *memStore) SetScheduleSession(_ context.Context, id, ses string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.scheds[id]
	s.SessionID = ses
	m.scheds[id] = s
	return nil
}
func (m *memStore) AddFiring(_ context.Context, f Firing, cursor *time.Time) (Firing, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.scheds[f.ScheduleID]
	if !ok {
		return f, errors.New("not found")
	}
	if m.failAdd > 0 {
		m.failAdd--
		return f, errors.New("disk full")
	}
	if cursor != nil {
		s.Cursor = *cursor
		m.scheds[f.ScheduleID] = s
	}
	f.ID = int64(len(m.firings) + 1)
	m.firings = append(m.firings, f)
	return f, nil
}
func (m *memStore) FinishFiring(_ context.Context, id int64, o Outcome, runID, ses, reason string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	f := &m.firings[id-1]
	f.Outcome, f.RunID, f.Reason = o, runID, reason
	return nil
}
func (m *memStore) LastRunFiring(_ context.Context, id string) (Firing, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.firings) - 1; i >= 0; i-- {
		if m.firings[i].ScheduleID == id && m.firings[i].RunID != "" {
			return m.firings[i], true, nil
		}
	}
	return Firing{}, false, nil
}
func (m *memStore) StartingFirings(context.Context) ([]Firing, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Firing
	for _, f := range m.firings {
		if f.Outcome == OutcomeStarting {
			out = append(out, f)
		}
	}
	return out, nil
}
func (m *memStore) outcomes(id string) []Outcome {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Outcome
	for _, f := range m.firings {
		if f.ScheduleID == id {
			out = append(out, f.Outcome)
		}
	}
	return out
}

type fakeStarter struct {
	mu       sync.Mutex
	runs     map[string]string // request id → run id
	active   map[string]bool
	sessions int
	fail     error
}

func (f *fakeStarter) CreateSession(context.Context, string, string, string, string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions++
	return fmt.Sprintf("ses_%d", f.sessions), nil
}
func (f *fakeStarter) SessionExists(context.Context, string) (bool, error) { return true, nil }
func (f *fakeStarter) StartRun(_ context.Context, req run.StartRequest) (run.StartResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return run.StartResult{}, f.fail
	}
	if id, ok := f.runs[req.ClientRequestID]; ok {
		return run.StartResult{RunID: id, Status: run.StatusRunning}, nil
	}
	id := fmt.Sprintf("run_%d", len(f.runs)+1)
	f.runs[req.ClientRequestID] = id
	f.active[id] = true
	return run.StartResult{RunID: id, SessionID: req.SessionID, Status: run.StatusQueued}, nil
}
func (f *fakeStarter) RunActive(_ context.Context, id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.active[id], nil
}
func (f *fakeStarter) finishAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.active)
}
func (f *fakeStarter) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.runs)
}

type fc struct{ *fakeclock.Clock }

func (c fc) NewTimer(d time.Duration) Timer { return c.Clock.NewTimer(d) }

func newTestScheduler(t *testing.T, now time.Time, scheds ...Schedule) (*Scheduler, *memStore, *fakeStarter, *fakeclock.Clock) {
	t.Helper()
	st := &memStore{scheds: map[string]Schedule{}}
	for _, s := range scheds {
		st.scheds[s.ID] = s
	}
	starter := &fakeStarter{runs: map[string]string{}, active: map[string]bool{}}
	clk := fakeclock.New(now)
	return New(Config{Store: st, Starter: starter, Clock: fc{clk}}), st, starter, clk
}

func hourly(id string, cursor time.Time, policy Missed) Schedule {
	return Schedule{ID: id, Name: id, Prompt: "hi", Agent: "demo", ProjectID: "prj", Cron: "0 * * * *",
		Timezone: "UTC", Target: TargetFresh, Missed: policy, Enabled: true, Cursor: cursor}
}

func TestTickAfterThreeDaySleep(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s, st, starter, clk := newTestScheduler(t, t0,
		hourly("once", t0, MissedRunOnce), hourly("skip", t0, MissedSkip))
	clk.Set(t0.Add(72*time.Hour + 30*time.Minute))
	s.tick(context.Background())
	if got := st.outcomes("once"); len(got) != 1 || got[0] != OutcomeFired {
		t.Errorf("run once: %v, want one fired", got)
	}
	if got := st.outcomes("skip"); len(got) != 1 || got[0] != OutcomeMissed {
		t.Errorf("skip: %v, want one missed", got)
	}
	if starter.count() != 1 {
		t.Errorf("%d runs started, want 1", starter.count())
	}
	// The same wake-up again (a second tick, a restart) fires nothing.
	s.tick(context.Background())
	if starter.count() != 1 || len(st.outcomes("once")) != 1 {
		t.Errorf("a second tick fired again: %v", st.outcomes("once"))
	}
}

func TestTickOverlapIsSkipped(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s, st, starter, clk := newTestScheduler(t, t0, hourly("h", t0, MissedRunOnce))
	clk.Set(t0.Add(time.Hour))
	s.tick(context.Background())
	clk.Set(t0.Add(2 * time.Hour)) // the first run is still going
	s.tick(context.Background())
	starter.finishAll()
	clk.Set(t0.Add(3 * time.Hour))
	s.tick(context.Background())
	want := []Outcome{OutcomeFired, OutcomeSkipped, OutcomeFired}
	if got := st.outcomes("h"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("history %v, want %v", got, want)
	}
}

func TestTickClockBackwardsDoesNotRefire(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s, st, starter, clk := newTestScheduler(t, t0, hourly("h", t0, MissedRunOnce))
	clk.Set(t0.Add(time.Hour))
	s.tick(context.Background())
	starter.finishAll()
	clk.Set(t0.Add(30 * time.Minute)) // set back before the 10:00 just fired
	s.tick(context.Background())
	clk.Set(t0.Add(time.Hour + 30*time.Second)) // 10:00 again
	s.tick(context.Background())
	if got := st.outcomes("h"); len(got) != 1 {
		t.Errorf("history %v, want the 10:00 firing once", got)
	}
}

func TestFailedToStartIsRecordedWithTheReason(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s, st, starter, clk := newTestScheduler(t, t0, hourly("h", t0, MissedRunOnce))
	starter.fail = errors.New("unknown agent \"gone\"")
	clk.Set(t0.Add(time.Hour))
	s.tick(context.Background())
	st.mu.Lock()
	f := st.firings[0]
	st.mu.Unlock()
	f.Settle()
	if f.Status != "failed_to_start" || f.Reason != `unknown agent "gone"` {
		t.Errorf("firing %+v", f)
	}
}

func TestRecoverStartingStartsOnce(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s, st, starter, _ := newTestScheduler(t, t0, hourly("h", t0, MissedRunOnce))
	// A supervisor recorded "starting" and died; the run may or may not
	// have been created. Both cases end with one run.
	st.AddFiring(context.Background(), Firing{ScheduleID: "h", Outcome: OutcomeStarting, SessionID: "ses_1", RequestID: "r1"}, nil)
	starter.runs["r1"] = "run_1"
	st.AddFiring(context.Background(), Firing{ScheduleID: "h", Outcome: OutcomeStarting, SessionID: "ses_2", RequestID: "r2"}, nil)
	s.recoverStarting(context.Background())
	if starter.count() != 2 {
		t.Errorf("%d runs, want 2 (one found, one started)", starter.count())
	}
	if got := st.outcomes("h"); fmt.Sprint(got) != fmt.Sprint([]Outcome{OutcomeFired, OutcomeFired}) {
		t.Errorf("history %v", got)
	}
}

// The loop sleeps until the earliest due time (capped by SanityWake),
// fires when the clock gets there, and re-arms when told of a change.
func TestLoopSleepsUntilDue(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 59, 30, 0, time.UTC)
	s, st, _, clk := newTestScheduler(t, t0, hourly("h", t0, MissedRunOnce))
	s.Start(context.Background())
	defer s.Close()
	clk.WaitArmed()
	if d := clk.LastArmed(); d != 30*time.Second {
		t.Fatalf("armed %s, want 30s (until 10:00)", d)
	}
	clk.Advance(30 * time.Second)
	clk.WaitArmed() // fired, then slept again
	if got := st.outcomes("h"); len(got) != 1 {
		t.Fatalf("history %v, want one firing", got)
	}
	if d := clk.LastArmed(); d != SanityWake {
		t.Errorf("armed %s, want the sanity cap %s (next due 11:00)", d, SanityWake)
	}
	st.mu.Lock()
	soon := clk.Now().Add(10 * time.Second)
	st.scheds["p"] = Schedule{ID: "p", At: &soon, Timezone: "UTC", Enabled: true, Cursor: clk.Now(), Missed: MissedSkip}
	st.mu.Unlock()
	s.Changed()
	clk.WaitArmed()
	if d := clk.LastArmed(); d != 10*time.Second {
		t.Errorf("after a change armed %s, want 10s (the new one-off)", d)
	}
}

// A firing the journal refused to record is tried again at the next wake:
// the stored cursor did not move, so the due time is still due.
func TestTickRetriesWhatWasNotRecorded(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s, st, starter, clk := newTestScheduler(t, t0, hourly("h", t0, MissedRunOnce))
	st.failAdd = 1
	clk.Set(t0.Add(time.Hour))
	s.tick(context.Background())
	if got := st.outcomes("h"); len(got) != 0 || starter.count() != 0 {
		t.Fatalf("history %v after a refused write", got)
	}
	clk.Set(t0.Add(time.Hour + time.Minute))
	s.tick(context.Background())
	if got := st.outcomes("h"); len(got) != 1 || got[0] != OutcomeFired || starter.count() != 1 {
		t.Errorf("history %v, runs %d: want the 10:00 firing once", got, starter.count())
	}
}

// TestOnChangeAfterEachRecordedFiring: the scheduler tells the service
// each time it records a firing (fired, missed) and after run now, so the
// Schedules view follows the watch bus (issue 23 item 6); a wake with
// nothing due says nothing.
func TestOnChangeAfterEachRecordedFiring(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	s, _, _, clk := newTestScheduler(t, t0, hourly("h", t0, MissedRunOnce), hourly("skip", t0, MissedSkip))
	var told int
	s.OnChange(func() { told++ })
	s.tick(context.Background())
	if told != 0 {
		t.Fatalf("told %d times with nothing due", told)
	}
	clk.Set(t0.Add(3*time.Hour + 30*time.Minute))
	s.tick(context.Background())
	if told != 2 {
		t.Fatalf("told %d times for one firing and one missed, want 2", told)
	}
	if _, err := s.RunNow(context.Background(), "h"); err != nil {
		t.Fatal(err)
	}
	if told != 3 {
		t.Fatalf("run now: told %d times", told)
	}
}

// listedStore tells each time the loop reads the schedules.
type listedStore struct {
	*memStore
	listed chan struct{}
}

func (l listedStore) ListSchedules(ctx context.Context) ([]Schedule, error) {
	defer func() { l.listed <- struct{}{} }()
	return l.memStore.ListSchedules(ctx)
}

// With nothing ever due (no schedule, or none enabled) the loop arms no
// timer, not even the once-a-minute sanity cap: an idle core wakes for
// nothing (docs/ARCHITECTURE.md §Idle). A schedule added kicks it.
func TestLoopWithNothingDueArmsNoTimer(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 59, 30, 0, time.UTC)
	off := hourly("off", t0, MissedRunOnce)
	off.Enabled = false
	mem := &memStore{scheds: map[string]Schedule{"off": off}}
	st := listedStore{mem, make(chan struct{}, 4)}
	clk := fakeclock.New(t0)
	s := New(Config{Store: st, Starter: &fakeStarter{runs: map[string]string{}, active: map[string]bool{}}, Clock: fc{clk}})
	s.Start(context.Background())
	defer s.Close()
	<-st.listed
	s.Changed() // a second tick: the first one's sleep has been decided
	<-st.listed
	if d := clk.LastArmed(); d != 0 {
		t.Fatalf("armed a timer of %s with nothing due", d)
	}
	mem.mu.Lock()
	soon := clk.Now().Add(10 * time.Second)
	mem.scheds["p"] = Schedule{ID: "p", At: &soon, Timezone: "UTC", Enabled: true, Cursor: clk.Now(), Missed: MissedSkip}
	mem.mu.Unlock()
	s.Changed()
	clk.WaitArmed()
	if d := clk.LastArmed(); d != 10*time.Second {
		t.Errorf("after a schedule was added armed %s, want 10s", d)
	}
}
