package remote

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Reconnect delays (docs/ARCHITECTURE.md §Remote cores): a link that broke
// is tried again after MinBackoff, doubling up to MaxBackoff while the
// host does not answer; the link's Up wakes the wait early. A remote link
// is slower to come back than the local socket (watchbus' 100 ms–5 s), and
// each try costs an SSH round trip.
const (
	MinBackoff = time.Second
	MaxBackoff = 30 * time.Second
)

// catchUpRuns bounds the runs read after a reconnect (the API's largest
// page): runs that started and ended while the link was down are found
// among the newest this many.
const catchUpRuns = service.MaxPage

// pageSize is the events read per request while catching up.
const pageSize = service.MaxPage

// Options tune a Follower; the zero value is sensible.
type Options struct {
	Log *slog.Logger
	// Message, if set, is called with every message of the host's bus
	// (snapshot, changes, doorbells, the goodbye), after the events it
	// announces are stored: the local core republishes them tagged with
	// the host. It runs on the follower's goroutine.
	Message func(host string, m run.WatchMessage)
	// MinBackoff and MaxBackoff override the reconnect delays (tests).
	MinBackoff, MaxBackoff time.Duration
}

// Follower follows one host's core. Run it once per host.
type Follower struct {
	link   Link
	sink   Sink
	o      Options
	log    *slog.Logger
	client *httpapi.Client

	// cursors: run id → last stored seq; want: the newest seq the host
	// announced. Touched by Run's goroutine only.
	cursors map[string]int64
	want    map[string]int64
	// known: this side followed the host before (cursors were kept, or
	// a catch-up ran), so runs that ended unseen are news worth telling;
	// on the first follow of a host its past runs are not.
	known bool
	// reachable: the last reachability told (nil: none yet).
	reachable *bool
}

// New returns a follower of link that stores into sink.
func New(link Link, sink Sink, o Options) *Follower {
	if o.MinBackoff <= 0 {
		o.MinBackoff = MinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = MaxBackoff
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Follower{link: link, sink: sink, o: o, log: log.With("host", link.Host()),
		client: httpapi.NewLocalClient(link.Socket()), want: map[string]int64{}}
}

// Run follows the host until ctx ends: the bus's snapshot, then its
// stream; every run's events are pulled from the stored cursor. When the
// stream ends (the link dropped: the connection's end wakes it, nothing
// polls) it waits out the back-off, or less when the link says it is up
// again, and reconnects, catching up from the cursors.
func (f *Follower) Run(ctx context.Context) error {
	cursors, err := f.sink.Cursors(ctx, f.link.Host())
	if err != nil {
		return fmt.Errorf("read what was kept of host %s: %w", f.link.Host(), err)
	}
	f.cursors = cursors
	f.known = len(cursors) > 0
	if f.cursors == nil {
		f.cursors = map[string]int64{}
	}
	backoff := f.o.MinBackoff
	for ctx.Err() == nil {
		connected, err := f.connection(ctx)
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			f.log.Info("remote core unreachable; retrying", "err", err, "after", backoff)
		}
		f.reach(false, err)
		backoff = nextBackoff(backoff, connected, f.o.MinBackoff, f.o.MaxBackoff)
		if !f.wait(ctx, backoff) {
			break
		}
	}
	return nil
}

// nextBackoff is the wait before the next try: back to min after a
// connection that got its snapshot (the wait is then min), doubling up to
// max while tries fail.
func nextBackoff(cur time.Duration, connected bool, lo, hi time.Duration) time.Duration {
	if connected {
		return lo
	}
	return min(max(2*cur, lo), hi)
}

// wait sleeps d, or less when the link comes up; false when ctx ended.
func (f *Follower) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	case <-f.link.Up():
	}
	return true
}

// connection follows one stream of the host's bus to its end. connected
// says it got the snapshot (the host answered).
func (f *Follower) connection(ctx context.Context) (connected bool, err error) {
	ch, err := f.client.Watch(ctx, true)
	if err != nil {
		return false, err
	}
	for m := range ch {
		switch m.Type {
		case run.WatchSnapshotType:
			connected = true
			f.log.Info("following remote core")
			f.reach(true, nil)
			if m.Snapshot != nil {
				for _, r := range m.Snapshot.Runs {
					f.announce(r.RunID, r.LastSeq)
				}
			}
			if err := f.catchUp(ctx); err != nil {
				f.log.Warn("catching up with remote core", "err", err)
			}
		case run.WatchDoorbell, run.WatchRunChanged:
			if m.Run != nil {
				f.announce(m.Run.RunID, m.Run.LastSeq)
				if err := f.pull(ctx, m.Run.RunID); err != nil {
					f.log.Warn("reading a remote run's events", "run", m.Run.RunID, "err", err)
				}
			}
		}
		f.message(m)
	}
	return connected, nil
}

// reach tells the host's reachability when it moved (host.changed), in
// words a person reads in the window.
func (f *Follower) reach(up bool, err error) {
	if f.reachable != nil && *f.reachable == up {
		return
	}
	f.reachable = &up
	h := run.HostState{Host: f.link.Host(), Reachable: up, Since: time.Now().UTC()}
	switch {
	case up:
	case err != nil:
		// The details are in the log (Run logs err); the person reads
		// what it means.
		h.Error = fmt.Sprintf("The host %s does not answer; its runs go on there. Trying again.", linkName(f.link))
	default:
		h.Error = fmt.Sprintf("The link to the host %s dropped; its runs go on there. Reconnecting.", linkName(f.link))
	}
	f.message(run.WatchMessage{Type: run.WatchHostChanged, HostState: &h})
}

func (f *Follower) message(m run.WatchMessage) {
	if f.o.Message != nil {
		f.o.Message(f.link.Host(), m)
	}
}

// endedState is the bus state of a run read after its end.
func endedState(r run.Run) *run.RunState {
	return &run.RunState{RunID: r.ID, SessionID: r.SessionID, ProjectID: r.ProjectID, Agent: r.Agent,
		Status: r.Status, LastSeq: r.LastSeq, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt,
		EndedAt: r.EndedAt, Error: r.Error}
}

func (f *Follower) announce(runID string, seq int64) {
	if seq > f.want[runID] {
		f.want[runID] = seq
	}
}

// catchUp finds the runs that moved past their cursor while nobody
// followed (started, went on or ended while the link was down or this
// side was stopped) and pulls them, oldest first.
func (f *Follower) catchUp(ctx context.Context) error {
	var rs []run.Run
	if err := f.client.Call(ctx, "GET", fmt.Sprintf("/api/runs?limit=%d", catchUpRuns), nil, &rs); err != nil {
		return fmt.Errorf("list the host's runs: %w", err)
	}
	slices.Reverse(rs) // the API lists newest first
	for _, r := range rs {
		f.announce(r.ID, r.LastSeq)
	}
	var errs []error
	for _, r := range rs {
		unseenEnd := r.Terminal && f.cursors[r.ID] < r.LastSeq
		if err := f.pull(ctx, r.ID); err != nil {
			errs = append(errs, err)
			continue
		}
		if unseenEnd && f.known {
			// It ended while nobody followed: say so once (its cursor
			// is now at its end, so the next catch-up does not).
			f.message(run.WatchMessage{Type: run.WatchRunChanged, Run: endedState(r)})
		}
	}
	f.known = true
	// Runs of the snapshot not in the list (more than catchUpRuns).
	for id := range f.want {
		if err := f.pull(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// errGap: the host answered events that do not follow the cursor; the
// run's copy would have a hole, so nothing of that page is stored.
var errGap = errors.New("the host's events do not follow the kept ones")

// pull reads the run's events after its cursor, page by page, and stores
// them until the cursor reaches what the host announced.
func (f *Follower) pull(ctx context.Context, runID string) error {
	for f.cursors[runID] < f.want[runID] {
		cur := f.cursors[runID]
		var page service.EventPage
		path := fmt.Sprintf("/api/runs/%s/events?after=%d&limit=%d", url.PathEscape(runID), cur, pageSize)
		if err := f.client.Call(ctx, "GET", path, nil, &page); err != nil {
			var gone *httpapi.APIError
			if errors.As(err, &gone) && gone.Status == http.StatusNotFound {
				// Deleted on the host (with its session): nothing more
				// will come; asking at every catch-up would only fail.
				f.log.Info("a remote run is gone from its host", "run", runID)
				delete(f.want, runID)
				return nil
			}
			return err
		}
		evs := fresh(page.Events, cur)
		if len(evs) == 0 {
			if page.LastSeq > cur {
				return fmt.Errorf("run %s after %d: %w", runID, cur, errGap)
			}
			// The host has no more than this yet: trust its count.
			f.want[runID] = cur
			return nil
		}
		if !contiguous(evs, cur) {
			return fmt.Errorf("run %s after %d: %w", runID, cur, errGap)
		}
		if err := f.sink.Store(ctx, f.link.Host(), evs); err != nil {
			return fmt.Errorf("keep run %s's events: %w", runID, err)
		}
		f.cursors[runID] = evs[len(evs)-1].Seq
		f.announce(runID, page.LastSeq)
	}
	return nil
}

// fresh drops the events at or below the cursor.
func fresh(evs []run.Event, cursor int64) []run.Event {
	i := 0
	for i < len(evs) && evs[i].Seq <= cursor {
		i++
	}
	return evs[i:]
}

// contiguous says evs are cursor+1, cursor+2, … without a hole.
func contiguous(evs []run.Event, cursor int64) bool {
	for i, ev := range evs {
		if ev.Seq != cursor+int64(i)+1 {
			return false
		}
	}
	return true
}
