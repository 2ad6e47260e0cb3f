package service

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/schedule"
)

// Schedules (docs/ARCHITECTURE.md §Schedules): create, edit,
// pause, delete, run now, history and a preview of the next firings. The
// scheduler that fires them lives beside the service in the supervisor;
// every change here re-arms it.

// ScheduleStore is what the service reads and writes of schedules.
type ScheduleStore interface {
	CreateSchedule(ctx context.Context, s schedule.Schedule) (schedule.Schedule, error)
	GetSchedule(ctx context.Context, id string) (schedule.Schedule, error)
	ListSchedules(ctx context.Context) ([]schedule.Schedule, error)
	UpdateSchedule(ctx context.Context, s schedule.Schedule) (schedule.Schedule, error)
	DeleteSchedule(ctx context.Context, id string) error
	Firings(ctx context.Context, scheduleID string, limit int) ([]schedule.Firing, error)
	LastFirings(ctx context.Context) (map[string]schedule.Firing, error)
}

// Scheduler is the running scheduler, as the service needs it.
type Scheduler interface {
	Now() time.Time
	Changed()
	RunNow(ctx context.Context, id string) (schedule.Firing, error)
}

// SetSchedules connects the schedule store and the running scheduler
// (the stack does, once both exist: the scheduler fires through this
// service's StartRun). Without it the schedule routes are unavailable.
func (s *Service) SetSchedules(store ScheduleStore, sch Scheduler) {
	s.schedStore, s.sched = store, sch
	if o, ok := sch.(interface{ OnChange(func()) }); ok {
		o.OnChange(s.schedulesChanged) // a firing recorded: on the watch bus
	}
}

// PreviewCount is how many next firings a preview lists.
const PreviewCount = 5

// ScheduleRequest is POST /api/schedules.
type ScheduleRequest struct {
	Name      string `json:"name"`
	Prompt    string `json:"prompt"`
	Agent     string `json:"agent"`
	Model     string `json:"model,omitempty"`
	ProjectID string `json:"project_id"`
	// When is a phrase ("every weekday at 9:00") or a cron expression.
	When string `json:"when,omitempty"`
	// At is a one-off's time (instead of When).
	At       *time.Time      `json:"at,omitempty"`
	Timezone string          `json:"timezone,omitempty"`
	Target   schedule.Target `json:"target,omitempty"`
	Missed   schedule.Missed `json:"missed,omitempty"`
	Enabled  *bool           `json:"enabled,omitempty"`
}

// SchedulePatch is PATCH /api/schedules/{id}; nil fields stay. Setting
// When clears a one-off time and setting At clears the expression.
type SchedulePatch struct {
	Name      *string          `json:"name,omitempty"`
	Prompt    *string          `json:"prompt,omitempty"`
	Agent     *string          `json:"agent,omitempty"`
	Model     *string          `json:"model,omitempty"`
	ProjectID *string          `json:"project_id,omitempty"`
	When      *string          `json:"when,omitempty"`
	At        *time.Time       `json:"at,omitempty"`
	Timezone  *string          `json:"timezone,omitempty"`
	Target    *schedule.Target `json:"target,omitempty"`
	Missed    *schedule.Missed `json:"missed,omitempty"`
	Enabled   *bool            `json:"enabled,omitempty"`
}

// ScheduleView is a schedule with what a list shows: the next due time
// and the last firing with its real status.
type ScheduleView struct {
	schedule.Schedule
	NextDue    *time.Time       `json:"next_due,omitempty"`
	LastFiring *schedule.Firing `json:"last_firing,omitempty"`
}

// Preview is GET /api/schedules/preview: what a phrase or expression means.
type Preview struct {
	Cron     string      `json:"cron,omitempty"`
	At       *time.Time  `json:"at,omitempty"`
	Timezone string      `json:"timezone"`
	Next     []time.Time `json:"next"`
}

var errNoSchedules = &Error{Code: CodeUnavailable, Message: "schedules are not available in this process"}

func (s *Service) schedulesReady() error {
	if s.schedStore == nil || s.sched == nil {
		return errNoSchedules
	}
	return nil
}

// PreviewSchedule resolves when (or a one-off at) in tz and lists the next
// firings from now.
func (s *Service) PreviewSchedule(ctx context.Context, when string, at *time.Time, tz string) (Preview, error) {
	if err := s.schedulesReady(); err != nil {
		return Preview{}, err
	}
	w, err := resolveWhen(when, at, tz, s.sched.Now())
	if err != nil {
		return Preview{}, err
	}
	p := Preview{Cron: w.Cron, At: w.At, Timezone: zoneName(tz), Next: w.NextN(s.sched.Now(), PreviewCount)}
	if p.Next == nil {
		p.Next = []time.Time{}
	}
	return p, nil
}

func zoneName(tz string) string {
	if tz = strings.TrimSpace(tz); tz == "" {
		return "Local"
	}
	return tz
}

func resolveWhen(when string, at *time.Time, tz string, now time.Time) (schedule.When, error) {
	if len(when) > MaxNameBytes || !utf8.ValidString(when) {
		return schedule.When{}, badRequest("when must be a short phrase or cron expression")
	}
	w, err := schedule.Resolve(when, at, zoneName(tz), now)
	if errors.Is(err, schedule.ErrInvalid) {
		return schedule.When{}, badRequest("%s", strings.TrimPrefix(err.Error(), schedule.ErrInvalid.Error()+": "))
	}
	return w, err
}

// CreateSchedule checks and stores a schedule; it fires from now on.
func (s *Service) CreateSchedule(ctx context.Context, req ScheduleRequest) (ScheduleView, error) {
	if err := s.schedulesReady(); err != nil {
		return ScheduleView{}, err
	}
	if strings.TrimSpace(req.When) != "" && req.At != nil {
		return ScheduleView{}, badRequest("give either when (a phrase or cron expression) or at (a one-off time), not both")
	}
	sc := schedule.Schedule{Name: req.Name, Prompt: req.Prompt, Agent: req.Agent, Model: req.Model,
		ProjectID: req.ProjectID, Phrase: strings.TrimSpace(req.When), At: req.At, Timezone: zoneName(req.Timezone),
		Target: req.Target, Missed: req.Missed, Enabled: req.Enabled == nil || *req.Enabled}
	if err := s.checkSchedule(ctx, &sc, true); err != nil {
		return ScheduleView{}, err
	}
	sc.Cursor = s.sched.Now()
	out, err := s.schedStore.CreateSchedule(ctx, sc)
	if err != nil {
		return ScheduleView{}, s.classify(ctx, "create schedule", "project", err)
	}
	s.sched.Changed()
	s.schedulesChanged()
	return s.scheduleView(out, nil), nil
}

// checkSchedule validates and normalises sc; when changed, the time
// (phrase, expression, one-off, zone) is resolved again.
func (s *Service) checkSchedule(ctx context.Context, sc *schedule.Schedule, whenChanged bool) error {
	sc.Name = strings.TrimSpace(sc.Name)
	if err := checkMessage(sc.Prompt); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Code == CodeBadRequest {
			return badRequest("the prompt must not be empty")
		}
		return err
	}
	if sc.Name == "" {
		sc.Name = defaultName(sc.Prompt)
	}
	if len(sc.Name) > MaxTitleBytes || !utf8.ValidString(sc.Name) {
		return badRequest("name must be valid text of at most %d bytes", MaxTitleBytes)
	}
	if sc.Agent == "" {
		return badRequest("agent is required")
	}
	if !s.agents.Known(sc.Agent) {
		return badRequest("unknown agent %q", sc.Agent)
	}
	if len(sc.Model) > MaxNameBytes {
		return badRequest("model must be a short name")
	}
	if sc.ProjectID == "" {
		return badRequest("project_id is required")
	}
	if _, err := s.store.GetProject(ctx, sc.ProjectID); err != nil {
		if CodeOf(s.classify(ctx, "get project", "project", err)) == CodeNotFound {
			return badRequest("unknown project %q", sc.ProjectID)
		}
		return s.classify(ctx, "get project", "project", err)
	}
	switch sc.Target {
	case "":
		sc.Target = schedule.TargetFresh
	case schedule.TargetFresh, schedule.TargetContinue:
	default:
		return badRequest(`target must be "fresh" (a new session each time) or "continue" (one session)`)
	}
	switch sc.Missed {
	case "":
		sc.Missed = schedule.MissedRunOnce
	case schedule.MissedRunOnce, schedule.MissedSkip:
	default:
		return badRequest(`missed must be "run_once" or "skip"`)
	}
	if !whenChanged {
		return nil
	}
	// The phrase (or expression) is the source when there is one; a
	// one-off given as a time has none.
	at := sc.At
	if sc.Phrase != "" {
		at = nil
	}
	w, err := resolveWhen(sc.Phrase, at, sc.Timezone, s.sched.Now())
	if err != nil {
		return err
	}
	sc.Cron, sc.At = w.Cron, w.At
	if w.At != nil && !w.At.After(s.sched.Now()) {
		return badRequest("the one-off time %s is in the past", w.At.Format("2006-01-02 15:04 MST"))
	}
	return nil
}

// defaultName is the prompt's first line, shortened.
func defaultName(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	if r := []rune(line); len(r) > 60 {
		line = string(r[:60]) + "…"
	}
	return line
}

func (s *Service) scheduleView(sc schedule.Schedule, last *schedule.Firing) ScheduleView {
	v := ScheduleView{Schedule: sc, LastFiring: last}
	if sc.Enabled {
		if w, err := schedule.WhenOf(sc); err == nil {
			if n := w.Next(sc.Cursor); !n.IsZero() {
				v.NextDue = &n
			}
		}
	}
	return v
}

// Schedules lists every schedule with its next due time and last firing.
func (s *Service) Schedules(ctx context.Context) ([]ScheduleView, error) {
	if err := s.schedulesReady(); err != nil {
		return nil, err
	}
	list, err := s.schedStore.ListSchedules(ctx)
	if err != nil {
		return nil, s.classify(ctx, "list schedules", "schedule", err)
	}
	last, err := s.schedStore.LastFirings(ctx)
	if err != nil {
		return nil, s.classify(ctx, "list schedules", "schedule", err)
	}
	out := make([]ScheduleView, 0, len(list))
	for _, sc := range list {
		var lf *schedule.Firing
		if f, ok := last[sc.ID]; ok {
			lf = &f
		}
		out = append(out, s.scheduleView(sc, lf))
	}
	return out, nil
}

// Schedule returns one schedule with its next due time and last firing.
func (s *Service) Schedule(ctx context.Context, id string) (ScheduleView, error) {
	if err := s.schedulesReady(); err != nil {
		return ScheduleView{}, err
	}
	sc, err := s.schedStore.GetSchedule(ctx, id)
	if err != nil {
		return ScheduleView{}, s.classify(ctx, "get schedule", "schedule", err)
	}
	fs, err := s.schedStore.Firings(ctx, id, 1)
	if err != nil {
		return ScheduleView{}, s.classify(ctx, "get schedule", "schedule", err)
	}
	var lf *schedule.Firing
	if len(fs) > 0 {
		lf = &fs[0]
	}
	return s.scheduleView(sc, lf), nil
}

// UpdateSchedule edits, pauses or resumes a schedule. A new time, or
// resuming, counts from now: what passed while paused is not caught up.
func (s *Service) UpdateSchedule(ctx context.Context, id string, p SchedulePatch) (ScheduleView, error) {
	if err := s.schedulesReady(); err != nil {
		return ScheduleView{}, err
	}
	sc, err := s.schedStore.GetSchedule(ctx, id)
	if err != nil {
		return ScheduleView{}, s.classify(ctx, "get schedule", "schedule", err)
	}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&sc.Name, p.Name)
	set(&sc.Prompt, p.Prompt)
	set(&sc.Agent, p.Agent)
	set(&sc.Model, p.Model)
	set(&sc.ProjectID, p.ProjectID)
	whenChanged := p.When != nil || p.At != nil || p.Timezone != nil
	if p.When != nil {
		sc.Phrase, sc.At = strings.TrimSpace(*p.When), nil
	}
	if p.At != nil {
		sc.Phrase, sc.At = "", p.At
	}
	if p.Timezone != nil {
		sc.Timezone = zoneName(*p.Timezone)
	}
	if whenChanged && p.When == nil && sc.Phrase == "" && sc.At == nil {
		sc.Phrase = sc.Cron
	}
	if p.Target != nil {
		sc.Target = *p.Target
	}
	if p.Missed != nil {
		sc.Missed = *p.Missed
	}
	resumed := p.Enabled != nil && *p.Enabled && !sc.Enabled
	if p.Enabled != nil {
		sc.Enabled = *p.Enabled
	}
	if err := s.checkSchedule(ctx, &sc, whenChanged); err != nil {
		return ScheduleView{}, err
	}
	if whenChanged || resumed {
		sc.Cursor = s.sched.Now()
	}
	out, err := s.schedStore.UpdateSchedule(ctx, sc)
	if err != nil {
		return ScheduleView{}, s.classify(ctx, "update schedule", "schedule", err)
	}
	s.sched.Changed()
	s.schedulesChanged()
	return s.Schedule(ctx, out.ID)
}

// DeleteSchedule removes a schedule and its history; its runs stay.
func (s *Service) DeleteSchedule(ctx context.Context, id string) error {
	if err := s.schedulesReady(); err != nil {
		return err
	}
	if err := s.schedStore.DeleteSchedule(ctx, id); err != nil {
		return s.classify(ctx, "delete schedule", "schedule", err)
	}
	s.sched.Changed()
	s.schedulesChanged()
	return nil
}

// RunSchedule fires a schedule now (paused or not) and returns the firing:
// fired with its run, skipped (the previous one still runs) or failed to
// start, with the reason.
func (s *Service) RunSchedule(ctx context.Context, id string) (schedule.Firing, error) {
	if err := s.schedulesReady(); err != nil {
		return schedule.Firing{}, err
	}
	if _, err := s.schedStore.GetSchedule(ctx, id); err != nil {
		return schedule.Firing{}, s.classify(ctx, "get schedule", "schedule", err)
	}
	f, err := s.sched.RunNow(ctx, id)
	return f, s.classify(ctx, "run schedule", "schedule", err)
}

// ScheduleHistory lists a schedule's firings, newest first.
func (s *Service) ScheduleHistory(ctx context.Context, id string, limit int) ([]schedule.Firing, error) {
	if err := s.schedulesReady(); err != nil {
		return nil, err
	}
	if _, err := s.schedStore.GetSchedule(ctx, id); err != nil {
		return nil, s.classify(ctx, "get schedule", "schedule", err)
	}
	if limit <= 0 || limit > MaxPage {
		limit = 100
	}
	fs, err := s.schedStore.Firings(ctx, id, limit)
	return nonNil(fs), s.classify(ctx, "schedule history", "schedule", err)
}
