// Package notify decides when Hermes Desk calls a person back with a
// desktop notification, and sends it (docs/ARCHITECTURE.md §Notifications).
// The decisions are pure functions over watch bus states, settings and the
// window's focus; the Engine turns a stream of watch messages into send and
// withdraw operations; the Notifier runs it against a Sender (D-Bus on
// Linux, the native centre elsewhere) and answers actions through the same
// service controls as the window.
package notify

import (
	"encoding/json"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Kind is a kind of notification, each switchable in Settings.
type Kind string

const (
	KindNeedsYou Kind = "needs_you" // an approval or a question is waiting
	KindFinished Kind = "finished"  // a run completed
	KindFailed   Kind = "failed"    // a run failed or was interrupted
	KindQuota    Kind = "quota"     // a run parked on a rate limit, or resumed
)

// Settings keys (the journal's settings table; values are JSON booleans).
const (
	SettingNeedsYou = "notifications.needs_you"
	SettingFinished = "notifications.finished"
	SettingFailed   = "notifications.failed"
	SettingDND      = "notifications.dnd"
	SettingQuota    = "notifications.quota"
)

// Settings are the person's switches. Every kind is on and Do Not Disturb
// off until changed.
type Settings struct {
	NeedsYou, Finished, Failed, DND bool
	// Quota: runs parked on a rate limit and resumed at the reset.
	Quota bool
}

// DefaultSettings is what a fresh data dir notifies.
func DefaultSettings() Settings {
	return Settings{NeedsYou: true, Finished: true, Failed: true, Quota: true}
}

// ParseSettings reads the switches from the settings map; a missing or
// malformed value keeps its default.
func ParseSettings(m map[string]json.RawMessage) Settings {
	s := DefaultSettings()
	for key, dst := range map[string]*bool{SettingNeedsYou: &s.NeedsYou, SettingFinished: &s.Finished, SettingFailed: &s.Failed,
		SettingDND: &s.DND, SettingQuota: &s.Quota} {
		var b bool
		if raw, ok := m[key]; ok && json.Unmarshal(raw, &b) == nil {
			*dst = b
		}
	}
	return s
}

// Focus is what the window says it shows: the session on screen and
// whether the window has the keyboard focus.
type Focus struct {
	SessionID string `json:"session_id"`
	Focused   bool   `json:"focused"`
}

// Allowed decides whether a notification of kind about sessionID may be
// shown: not under Do Not Disturb, not when its kind is switched off, and
// not when the person is already looking at that session.
func Allowed(k Kind, s Settings, f Focus, sessionID string) bool {
	if s.DND {
		return false
	}
	switch k {
	case KindNeedsYou:
		if !s.NeedsYou {
			return false
		}
	case KindFinished:
		if !s.Finished {
			return false
		}
	case KindFailed:
		if !s.Failed {
			return false
		}
	case KindQuota:
		if !s.Quota {
			return false
		}
	default:
		return false
	}
	return !(f.Focused && f.SessionID != "" && f.SessionID == sessionID)
}

// Change is what happened to a run between two of its states, as far as
// notifications care.
type Change struct {
	// NewPrompt is a prompt that appeared (nil if none).
	NewPrompt *run.PendingPrompt
	// GonePrompt is the id of a prompt no longer pending: answered
	// somewhere, withdrawn, or its run ended.
	GonePrompt string
	// Ended is the kind of a run's end worth telling (finished or failed),
	// "" otherwise. A cancelled run is not: the person stopped it.
	Ended Kind
	// Quota is a run that parked on its vendor's rate limit or resumed
	// from it (docs/ARCHITECTURE.md §Usage, parked runs); "" otherwise.
	Quota QuotaChange
}

// QuotaChange is a run's move into or out of waiting for its quota.
type QuotaChange string

const (
	QuotaParked  QuotaChange = "parked"
	QuotaResumed QuotaChange = "resumed"
)

// Classify compares a run's previous state (nil when unseen) with its
// current one.
func Classify(prev *run.RunState, cur run.RunState) Change {
	var c Change
	var prevPrompt *run.PendingPrompt
	if prev != nil {
		prevPrompt = prev.Pending
	}
	switch {
	case cur.Pending != nil && (prevPrompt == nil || prevPrompt.ID != cur.Pending.ID):
		c.NewPrompt = cur.Pending
		if prevPrompt != nil {
			c.GonePrompt = prevPrompt.ID
		}
	case cur.Pending == nil && prevPrompt != nil:
		c.GonePrompt = prevPrompt.ID
	}
	wasParked := prev != nil && prev.Status == run.StatusParked
	switch {
	case cur.Status == run.StatusParked && !wasParked:
		c.Quota = QuotaParked
	case wasParked && cur.Status != run.StatusParked && !cur.Status.Terminal():
		c.Quota = QuotaResumed
	}
	switch cur.Status {
	case run.StatusCompleted:
		c.Ended = KindFinished
	case run.StatusFailed, run.StatusInterrupted:
		c.Ended = KindFailed
	}
	return c
}
