package shim

import (
	"errors"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// warmState is one idle period of a warm shim. Its idle timer and a next
// run's arrival are decided under mu: a run is either taken (timer
// stopped) or refused because the period ended — never both.
type warmState struct {
	spec    control.Spec // the previous run's: what the agent was started for
	fp      string
	handoff chan handoff  // one taken run, buffered
	closed  chan struct{} // closed when the period ends without a run
	// abandoned is closed when the shim exits with a taken run it never
	// got to (its previous run's done could not be recorded), so the
	// waiting request is answered rather than left hanging.
	abandoned   chan struct{}
	abandonOnce sync.Once

	mu    sync.Mutex
	phase warmPhase
	why   string
	timer *time.Timer
}

type warmPhase int

const (
	warmIdle  warmPhase = iota
	warmTaken           // a next run was handed over
	warmEnded           // timed out, stopped, or a run did not fit
)

// handoff carries a next run to the idle loop, which answers on reply.
type handoff struct {
	spec  control.Spec
	reply chan handoffReply
}

type handoffReply struct {
	boot control.Bootstrap
	err  error
}

func newWarmState(prev control.Spec) *warmState {
	return &warmState{
		spec: prev, fp: control.Fingerprint(prev),
		handoff: make(chan handoff, 1), closed: make(chan struct{}), abandoned: make(chan struct{}),
	}
}

func (w *warmState) abandon() { w.abandonOnce.Do(func() { close(w.abandoned) }) }

// arm starts the idle timer.
func (w *warmState) arm(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.phase == warmIdle {
		w.timer = time.AfterFunc(d, func() { w.end("idle timeout") })
	}
}

// take claims the warm agent for spec's run; an error ends nothing but
// that request, except a run the agent does not fit (other settings,
// workspace or model): the warm agent is then of no use and retires.
func (w *warmState) take(spec control.Spec) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.phase != warmIdle {
		return errors.New("the warm shim is exiting")
	}
	if err := spec.Validate(); err != nil {
		return err
	}
	if spec.SessionID != w.spec.SessionID || spec.DataDir != w.spec.DataDir || spec.DBPath != w.spec.DBPath {
		return errors.New("the run belongs to another session")
	}
	if control.Fingerprint(spec) != w.fp {
		w.endLocked("the agent's settings changed")
		return errors.New("the agent's settings changed; the warm agent retires")
	}
	w.phase = warmTaken
	if w.timer != nil {
		w.timer.Stop()
	}
	return nil
}

// end ends the idle period unless a run was taken; it reports whether it
// (or an earlier end) did.
func (w *warmState) end(why string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.phase == warmTaken {
		return false
	}
	w.endLocked(why)
	return true
}

func (w *warmState) endLocked(why string) {
	if w.phase != warmIdle {
		return
	}
	w.phase, w.why = warmEnded, why
	if w.timer != nil {
		w.timer.Stop()
	}
	close(w.closed)
}

func (w *warmState) reason() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.why
}
