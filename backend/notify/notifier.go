package notify

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
	"github.com/hermesdesk/hermesdesk/backend/watchbus"
)

// Sender shows notifications. Implementations: the D-Bus sender on Linux,
// the native one on macOS and Windows, fakes in tests.
type Sender interface {
	// Send shows n, replacing a notification with the same Key.
	Send(n Note) error
	// Withdraw closes the notification with key, if it is still up.
	Withdraw(key string) error
}

// Controls is the part of the service a notification's buttons use: the
// same control path as the window's.
type Controls interface {
	Approve(ctx context.Context, runID, approvalID, choice string) (run.ControlResult, error)
	Settings(ctx context.Context) (map[string]json.RawMessage, error)
}

// Config wires a Notifier.
type Config struct {
	Sender   Sender
	Controls Controls
	// Open shows the window on a session ("" for just the window).
	Open func(sessionID string)
	Log  *slog.Logger
	now  func() time.Time
}

// Notifier runs an Engine against the watch bus and a Sender, and acts on
// what a person clicks.
type Notifier struct {
	cfg   Config
	in    chan func()
	eng   *Engine
	notes map[string]Note // sent, by key: what an action refers to

	mu    sync.Mutex
	focus Focus
}

// New returns a notifier; Run starts it.
func New(cfg Config) *Notifier {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.now == nil {
		cfg.now = time.Now
	}
	if cfg.Open == nil {
		cfg.Open = func(string) {}
	}
	return &Notifier{cfg: cfg, in: make(chan func(), 64), eng: NewEngine(), notes: map[string]Note{}}
}

// Run follows src until ctx ends.
func (n *Notifier) Run(ctx context.Context, src traystate.Source) {
	msgs := make(chan run.WatchMessage, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchbus.Follow(ctx, src, func(m run.WatchMessage) {
			select {
			case msgs <- m:
			case <-ctx.Done():
			}
		}, watchbus.Options{Log: n.cfg.Log})
	}()
	defer func() { <-done }()
	var timer *time.Timer
	var timerC <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case m := <-msgs:
			if m.Type == run.WatchSnapshotType || m.Type == run.WatchRunChanged {
				n.eng.SetSettings(n.settings(ctx))
			}
			n.do(n.eng.Apply(m, n.cfg.now()))
		case f := <-n.in:
			f()
		case <-timerC:
			timerC = nil
			n.do(n.eng.Flush(n.cfg.now()))
		}
		if due, ok := n.eng.Due(); ok && timerC == nil {
			timer = time.NewTimer(max(0, due.Sub(n.cfg.now())))
			timerC = timer.C
		}
	}
}

// settings reads the switches; an unreadable settings table notifies as
// by default rather than going quiet.
func (n *Notifier) settings(ctx context.Context) Settings {
	if n.cfg.Controls == nil {
		return DefaultSettings()
	}
	m, err := n.cfg.Controls.Settings(ctx)
	if err != nil {
		n.cfg.Log.Warn("notifications: cannot read settings; using defaults", "err", err)
		return DefaultSettings()
	}
	return ParseSettings(m)
}

// SetFocus is told by the window what it shows and whether it has focus.
func (n *Notifier) SetFocus(f Focus) {
	n.mu.Lock()
	n.focus = f
	n.mu.Unlock()
	n.post(func() { n.do(n.eng.SetFocus(f)) })
}

// Focus returns what the window last said.
func (n *Notifier) Focus() Focus {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.focus
}

// post runs f on the notifier's goroutine; dropped if it is not running
// and its queue is full (a focus change or a click is superseded soon).
func (n *Notifier) post(f func()) {
	select {
	case n.in <- f:
	default:
		n.cfg.Log.Warn("notifications: busy; an input was dropped")
	}
}

func (n *Notifier) do(ops []Op) {
	for _, op := range ops {
		switch op.Kind {
		case OpSend:
			n.notes[op.Note.Key] = op.Note
			if err := n.cfg.Sender.Send(op.Note); err != nil {
				n.cfg.Log.Warn("notification not shown", "key", op.Note.Key, "err", err)
			}
		case OpWithdraw:
			delete(n.notes, op.Key)
			if err := n.cfg.Sender.Withdraw(op.Key); err != nil {
				n.cfg.Log.Debug("notification not withdrawn", "key", op.Key, "err", err)
			}
		}
	}
}

// approveTimeout bounds a notification's answer: the control path itself
// answers within its own timeout.
const approveTimeout = 30 * time.Second

// Invoke handles a click on the notification with key: the body or Open
// shows the session; an approval's option answers it through Controls,
// recorded as answered by the notification. Senders call it from any
// goroutine.
func (n *Notifier) Invoke(key, action string) {
	n.post(func() {
		note, ok := n.notes[key]
		if !ok {
			n.cfg.Log.Info("notification action for a notification no longer known", "key", key, "action", action)
			return
		}
		approvalID, choice, isChoice := ChoiceOf(action)
		if isChoice && !offers(note, action) {
			// Only a button this notification showed answers it.
			n.cfg.Log.Warn("notification action it did not offer; opening instead", "key", key, "action", action)
			isChoice = false
		}
		if !isChoice || note.PromptID == "" {
			n.cfg.Open(note.SessionID)
			return
		}
		// The click must name the request this notification shows, and
		// that request must still be the one pending: a button never
		// answers a different request (issue 21 item 6).
		if approvalID != note.PromptID || !n.isPending(note) {
			n.cfg.Log.Warn("notification action for a request that is not the one pending; ignored",
				"run", note.RunID, "approval", approvalID, "shown", note.PromptID)
			return
		}
		n.eng.Answered(note.RunID)
		go n.approve(note, choice)
	})
}

// isPending: the run's pending prompt is the note's.
func (n *Notifier) isPending(note Note) bool {
	r, ok := n.eng.Pending(note.RunID)
	return ok && r.Pending.ID == note.PromptID
}

func (n *Notifier) approve(note Note, choice string) {
	if n.cfg.Controls == nil {
		return
	}
	ctx, cancel := context.WithTimeout(run.WithAnsweredBy(context.Background(), run.AnsweredByNotification), approveTimeout)
	defer cancel()
	res, err := n.cfg.Controls.Approve(ctx, note.RunID, note.PromptID, choice)
	if err == nil && res.Accepted {
		n.cfg.Log.Info("approval answered from a notification", "run", note.RunID, "choice", choice)
		return
	}
	msg := "It was answered elsewhere before your choice arrived."
	if err != nil {
		n.cfg.Log.Warn("approval from a notification failed", "run", note.RunID, "err", err)
		msg = "Hermes Desk could not pass your answer on. Open the session to answer there."
	} else if res.Message != "" {
		msg = "Your choice was not used: " + res.Message + "."
	}
	follow := Note{Key: "answered:" + note.RunID, Kind: KindNeedsYou, RunID: note.RunID, SessionID: note.SessionID,
		Summary: "Already answered — " + note.Summary, Body: msg}
	if err != nil {
		follow.Summary = "Answer not sent — " + note.Summary
	}
	n.post(func() { n.do([]Op{{Kind: OpSend, Note: follow}}) })
}

// offers reports whether a note showed the action as a button.
func offers(note Note, action string) bool {
	for _, a := range note.Actions {
		if a.Key == action {
			return true
		}
	}
	return false
}
