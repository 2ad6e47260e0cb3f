package traystate

import (
	"cmp"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Icon names one of the three tray icons (build/icons/tray-*.svg).
type Icon string

const (
	IconIdle     Icon = "idle"
	IconRunning  Icon = "running"
	IconNeedsYou Icon = "needs-you"
)

// Action is what a menu item does when clicked; the tray hands it back to
// the owner of the model with the item's RunID or SessionID.
type Action string

const (
	ActionNone        Action = ""             // a label or a submenu parent
	ActionOpenSession Action = "open-session" // SessionID
	ActionStopRun     Action = "stop-run"     // RunID
	ActionNewSession  Action = "new-session"
	ActionOpen        Action = "open"
	ActionAutostart   Action = "autostart" // a checkbox: Checked is the state on disk
	ActionQuit        Action = "quit"      // no active runs: just quit
	ActionQuitKeep    Action = "quit-keep" // quit; the runs go on in their shims
	ActionQuitStop    Action = "quit-stop" // stop every active run, then quit
)

// Item is one menu entry. A Separator has no label; an item with Children
// is a submenu.
type Item struct {
	Label     string `json:"label,omitempty"`
	Tooltip   string `json:"tooltip,omitempty"`
	Action    Action `json:"action,omitempty"`
	RunID     string `json:"run_id,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	Separator bool   `json:"separator,omitempty"`
	Checkbox  bool   `json:"checkbox,omitempty"`
	Checked   bool   `json:"checked,omitempty"`
	Children  []Item `json:"children,omitempty"`
}

// View is everything the tray shows.
type View struct {
	Icon     Icon   `json:"icon"`
	Running  int    `json:"running"`   // active runs
	NeedsYou int    `json:"needs_you"` // of which wait for a person
	Tooltip  string `json:"tooltip"`
	Items    []Item `json:"items"`
}

// Menu labels that do not depend on the runs; tests click them by label.
const (
	LabelNewSession = "New session…"
	LabelOpen       = "Open Hermes Desk"
	LabelAutostart  = "Start at login"
	LabelQuit       = "Quit"
	LabelOpenRun    = "Open session"
	LabelStopRun    = "Stop run"
	AppName         = "Hermes Desk"
)

// MaxRunItems bounds the runs listed in the menu; the rest are counted in
// one line (a menu taller than the screen helps nobody).
const MaxRunItems = 10

// maxTitle bounds a session title in a menu label, in characters.
const maxTitle = 40

// maxWorkspace bounds a workspace's name (its branch) in a run line.
const maxWorkspace = 32

// Options are the parts of the view that do not come from the bus.
type Options struct {
	Now       time.Time
	Autostart bool
	// Quota is each vendor's latest quota line (usage.QuotaLine), shown
	// under the runs (docs/ARCHITECTURE.md §Usage).
	Quota []string
	// Conflicts are the conflict radar's lines (State.ConflictLines),
	// shown under the quota lines (docs/ARCHITECTURE.md §Conflict radar).
	Conflicts []string
}

// Render computes the view of the given runs (as ordered by State.Runs).
func Render(runs []run.RunState, o Options) View {
	v := View{Icon: IconIdle, Running: len(runs)}
	parked := 0
	for _, r := range runs {
		if NeedsYou(r) {
			v.NeedsYou++
		}
		if r.Status == run.StatusParked {
			parked++
		}
	}
	switch {
	case v.NeedsYou > 0:
		v.Icon = IconNeedsYou
	case v.Running > parked:
		v.Icon = IconRunning
	}
	v.Tooltip = Tooltip(v.Running, v.NeedsYou)
	if parked > 0 && parked == v.Running {
		// Nothing works until a quota resets: no running badge.
		v.Tooltip = fmt.Sprintf("%s — %s for quota", AppName, plural(parked, "run waits", "runs wait"))
	}

	for i, r := range runs {
		if i == MaxRunItems {
			v.Items = append(v.Items, Item{Label: fmt.Sprintf("and %d more — open Hermes Desk to see them", len(runs)-MaxRunItems), Action: ActionOpen})
			break
		}
		v.Items = append(v.Items, Item{
			Label: RunLabel(r, o.Now),
			Children: []Item{
				{Label: LabelOpenRun, Action: ActionOpenSession, SessionID: r.SessionID, RunID: r.RunID},
				{Label: LabelStopRun, Action: ActionStopRun, RunID: r.RunID},
			},
		})
	}
	if len(runs) > 0 {
		v.Items = append(v.Items, Item{Separator: true})
	}
	for _, line := range o.Quota {
		if line = Truncate(Clean(line), maxQuotaLine); line != "" {
			v.Items = append(v.Items, Item{Label: line})
		}
	}
	v.Items = append(v.Items, conflictItems(o.Conflicts)...)
	if len(v.Items) > 0 && !v.Items[len(v.Items)-1].Separator {
		v.Items = append(v.Items, Item{Separator: true})
	}
	v.Items = append(v.Items,
		Item{Label: LabelNewSession, Tooltip: "Open the window on a new session", Action: ActionNewSession},
		Item{Label: LabelOpen, Tooltip: "Show the Hermes Desk window", Action: ActionOpen},
		Item{Label: LabelAutostart, Tooltip: "Start Hermes Desk hidden when you log in", Action: ActionAutostart, Checkbox: true, Checked: o.Autostart},
		Item{Separator: true},
		QuitItem(len(Local(runs))),
	)
	return v
}

// Local is the runs of this machine: quitting keeps or stops those only,
// another host's runs go on there whatever this side does
// (docs/ARCHITECTURE.md §Remote cores).
func Local(runs []run.RunState) []run.RunState {
	var out []run.RunState
	for _, r := range runs {
		if r.Host == "" {
			out = append(out, r)
		}
	}
	return out
}

// maxQuotaLine bounds a quota line in the menu.
const maxQuotaLine = 80

// QuitItem is a plain Quit with no active runs; with some, a submenu that
// makes the person choose what happens to them — never a silent orphan
// (docs/ARCHITECTURE.md §Quit with active runs).
func QuitItem(active int) Item {
	if active == 0 {
		return Item{Label: LabelQuit, Tooltip: "Quit Hermes Desk", Action: ActionQuit}
	}
	return Item{Label: LabelQuit, Children: []Item{
		{Label: KeepLabel(active), Action: ActionQuitKeep, Tooltip: "They go on; Hermes Desk picks them up when it starts again"},
		{Label: StopLabel(active), Action: ActionQuitStop},
	}}
}

// KeepLabel and StopLabel are the Quit submenu's two choices.
func KeepLabel(n int) string {
	return fmt.Sprintf("Keep %s running in the background", plural(n, "run", "runs"))
}

func StopLabel(n int) string { return fmt.Sprintf("Stop %s and quit", plural(n, "run", "runs")) }

// Tooltip says the icon's state in words.
func Tooltip(running, needsYou int) string {
	switch {
	case running == 0:
		return AppName + " — nothing running"
	case needsYou == 0:
		return fmt.Sprintf("%s — %s", AppName, plural(running, "run", "runs")+" running")
	case needsYou == running:
		return fmt.Sprintf("%s — %s you", AppName, plural(needsYou, "run needs", "runs need"))
	default:
		return fmt.Sprintf("%s — %s running, %d %s you", AppName, plural(running, "run", "runs"), needsYou, pick(needsYou, "needs", "need"))
	}
}

// RunLabel is one run's menu line: title — in workspace — on host —
// agent — status — age. The workspace is named only for a run in a worktree, so two runs
// of one project in parallel tell apart (docs/ARCHITECTURE.md §Workspaces).
func RunLabel(r run.RunState, now time.Time) string {
	title := Clean(r.SessionTitle)
	if title == "" {
		title = "Untitled session"
	}
	parts := []string{Truncate(title, maxTitle)}
	if w := Clean(r.Workspace); w != "" {
		parts = append(parts, "in "+Truncate(w, maxWorkspace))
	}
	if h := Clean(r.Where()); h != "" {
		// Where it runs: another host's core (docs/ARCHITECTURE.md §Remote cores).
		parts = append(parts, "on "+Truncate(h, maxWorkspace))
	}
	if a := Clean(cmp.Or(r.AgentName, r.Agent)); a != "" {
		parts = append(parts, a)
	}
	parts = append(parts, StatusWords(r))
	if age := Age(since(r), now); age != "" {
		parts = append(parts, age)
	}
	return strings.Join(parts, " — ")
}

// StatusWords says a run's status for a person.
func StatusWords(r run.RunState) string {
	if r.Pending != nil {
		if r.Pending.Kind == run.PendingClarify {
			return "has a question"
		}
		return "needs approval"
	}
	switch r.Status {
	case run.StatusQueued:
		return "queued"
	case run.StatusRunning:
		return "running"
	case run.StatusAwaitingApproval:
		return "needs approval"
	case run.StatusAwaitingClarify:
		return "has a question"
	case run.StatusCancelling:
		return "stopping"
	case run.StatusPaused:
		return "paused"
	case run.StatusParked:
		if at, err := time.Parse(time.RFC3339, r.ResumesAt); err == nil {
			return "Waiting for quota — " + ResumesAt(at)
		}
		return "Waiting for quota"
	}
	return string(r.Status)
}

// ResumesAt says when a parked run resumes: "resumes at 15:00" in the
// local zone (docs/ARCHITECTURE.md §Usage, parked runs).
func ResumesAt(at time.Time) string { return "resumes at " + at.Local().Format("15:04") }

// since is when a run began: its start, or its creation while queued.
func since(r run.RunState) time.Time {
	if r.StartedAt != nil && !r.StartedAt.IsZero() {
		return *r.StartedAt
	}
	return r.CreatedAt
}

// Age is a short duration in words: "just now", "4 min", "2 h 5 min", "3 d".
func Age(from, now time.Time) string {
	if from.IsZero() || now.IsZero() {
		return ""
	}
	d := now.Sub(from)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	case d < 24*time.Hour:
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		if m == 0 {
			return fmt.Sprintf("%d h", h)
		}
		return fmt.Sprintf("%d h %d min", h, m)
	}
	return fmt.Sprintf("%d d", int(d/(24*time.Hour)))
}

func plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, pick(n, one, many))
}

func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Clean makes agent-chosen text safe for one menu line: control characters
// (newlines, bidi overrides) become spaces, and runs of spaces collapse.
func Clean(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f {
			r = ' '
		}
		if r == ' ' {
			if space {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// Truncate shortens s to n characters with an ellipsis.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
