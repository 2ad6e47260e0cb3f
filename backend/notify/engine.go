package notify

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/traystate"
)

// CoalesceWindow is how long ended runs are gathered into one
// notification: several runs finishing within it give one, not a storm.
const CoalesceWindow = time.Second

// Action keys a notification offers. An approval's options are "choose:",
// the approval's id (query-escaped, so it holds no ':') and the agent's
// option id: a click names the request it answers, never "whatever is
// pending now" (issue 21 item 6).
const (
	ActionDefault = "default" // a click on the notification's body: Open
	ActionOpen    = "open"
	choosePrefix  = "choose:"
)

// ChoiceAction is the action key for option optionID of approval approvalID.
func ChoiceAction(approvalID, optionID string) string {
	return choosePrefix + url.QueryEscape(approvalID) + ":" + optionID
}

// ChoiceOf returns the approval and option ids of a "choose:" action key.
func ChoiceOf(action string) (approvalID, optionID string, ok bool) {
	rest, ok := strings.CutPrefix(action, choosePrefix)
	if !ok {
		return "", "", false
	}
	escaped, optionID, ok := strings.Cut(rest, ":")
	if !ok {
		return "", "", false
	}
	approvalID, err := url.QueryUnescape(escaped)
	if err != nil || approvalID == "" || optionID == "" {
		return "", "", false
	}
	return approvalID, optionID, true
}

// Action is a button on a notification.
type Action struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// Note is one notification to show. Notes with the same Key replace each
// other in place; a prompt's key names the prompt, so a newer request of
// the same run is a new notification and the older one is withdrawn.
type Note struct {
	Key       string
	Kind      Kind
	Summary   string
	Body      string
	Actions   []Action // buttons; a body click is always ActionDefault
	RunID     string
	SessionID string
	PromptID  string
	Urgent    bool
}

// OpKind says what an Op does.
type OpKind int

const (
	OpSend     OpKind = iota + 1 // show Note (replacing one with its Key)
	OpWithdraw                   // close the notification with Key
)

// Op is one thing for the sender to do.
type Op struct {
	Kind OpKind
	Note Note   // OpSend
	Key  string // OpWithdraw
}

// PromptKey is the key of the notification for prompt promptID of a run.
func PromptKey(runID, promptID string) string { return "prompt:" + runID + ":" + promptID }

// Engine folds watch messages into notification operations. It is pure:
// time comes in as arguments, and it is used from one goroutine.
type Engine struct {
	settings Settings
	focus    Focus
	runs     map[string]run.RunState
	shown    map[string]string // run id → prompt id with a notification up
	ended    []run.RunState    // gathered for the coalesced notification
	due      time.Time
	batches  int
}

// NewEngine starts with the default settings and no focus.
func NewEngine() *Engine {
	return &Engine{settings: DefaultSettings(), runs: map[string]run.RunState{}, shown: map[string]string{}}
}

// SetSettings changes the switches for what comes next.
func (e *Engine) SetSettings(s Settings) { e.settings = s }

// SetFocus records what the window shows. A prompt notification for the
// session the person now looks at is withdrawn: the window shows it.
func (e *Engine) SetFocus(f Focus) []Op {
	e.focus = f
	if !f.Focused || f.SessionID == "" {
		return nil
	}
	var ops []Op
	for runID := range e.shown {
		if r, ok := e.runs[runID]; ok && r.SessionID == f.SessionID {
			ops = append(ops, e.withdraw(runID))
		}
	}
	return ops
}

// Pending returns the prompt notification shown for a run, if any.
func (e *Engine) Pending(runID string) (run.RunState, bool) {
	r, ok := e.runs[runID]
	if !ok || r.Pending == nil || e.shown[runID] != r.Pending.ID {
		return run.RunState{}, false
	}
	return r, true
}

// Apply folds one message in.
func (e *Engine) Apply(m run.WatchMessage, now time.Time) []Op {
	switch m.Type {
	case run.WatchSnapshotType:
		return e.snapshot(m.Snapshot)
	case run.WatchRunChanged:
		if m.Run == nil || m.Run.RunID == "" {
			return nil
		}
		return e.change(*m.Run, now)
	}
	return nil
}

// snapshot replaces the known runs. A prompt already notified is not
// notified again; one that went while the watcher was away is withdrawn.
// Runs that ended meanwhile are not announced: how they ended is unknown.
func (e *Engine) snapshot(s *run.WatchSnapshot) []Op {
	var ops []Op
	next := map[string]run.RunState{}
	if s != nil {
		for _, r := range s.Runs {
			if r.RunID != "" && !r.Status.Terminal() {
				next[r.RunID] = r
			}
		}
	}
	for id := range e.shown {
		if r, ok := next[id]; !ok || r.Pending == nil || r.Pending.ID != e.shown[id] {
			ops = append(ops, e.withdraw(id))
		}
	}
	e.runs = next
	for _, r := range sortedRuns(next) {
		if r.Pending != nil && e.shown[r.RunID] != r.Pending.ID {
			ops = append(ops, e.prompt(r)...)
		}
	}
	return ops
}

func (e *Engine) change(cur run.RunState, now time.Time) []Op {
	var prev *run.RunState
	if p, ok := e.runs[cur.RunID]; ok {
		prev = &p
	}
	c := Classify(prev, cur)
	if cur.Status.Terminal() {
		delete(e.runs, cur.RunID)
	} else {
		e.runs[cur.RunID] = cur
	}
	var ops []Op
	if _, up := e.shown[cur.RunID]; up && (c.GonePrompt != "" || cur.Status.Terminal()) {
		ops = append(ops, e.withdraw(cur.RunID))
	}
	if c.NewPrompt != nil && !cur.Status.Terminal() {
		ops = append(ops, e.prompt(cur)...)
	}
	if c.Quota != "" && Allowed(KindQuota, e.settings, e.focus, cur.SessionID) {
		ops = append(ops, Op{Kind: OpSend, Note: QuotaNote(cur, c.Quota)})
	}
	if c.Ended != "" && Allowed(c.Ended, e.settings, e.focus, cur.SessionID) {
		if len(e.ended) == 0 {
			e.due = now.Add(CoalesceWindow)
		}
		e.ended = append(e.ended, cur)
	}
	return ops
}

// prompt notifies a new approval or question, if allowed.
func (e *Engine) prompt(r run.RunState) []Op {
	if !Allowed(KindNeedsYou, e.settings, e.focus, r.SessionID) {
		return nil
	}
	e.shown[r.RunID] = r.Pending.ID
	return []Op{{Kind: OpSend, Note: PromptNote(r)}}
}

func (e *Engine) withdraw(runID string) Op {
	key := PromptKey(runID, e.shown[runID])
	delete(e.shown, runID)
	return Op{Kind: OpWithdraw, Key: key}
}

// Answered records that a prompt was answered from its notification
// (which the notification server closes itself).
func (e *Engine) Answered(runID string) { delete(e.shown, runID) }

// Due reports when Flush should next be called, if anything is gathered.
func (e *Engine) Due() (time.Time, bool) { return e.due, len(e.ended) > 0 }

// Flush sends the gathered ended runs as one notification once the
// window has passed.
func (e *Engine) Flush(now time.Time) []Op {
	if len(e.ended) == 0 || now.Before(e.due) {
		return nil
	}
	e.batches++
	n := EndedNote(e.ended, e.batches)
	e.ended, e.due = nil, time.Time{}
	return []Op{{Kind: OpSend, Note: n}}
}

// PromptNote is the notification for a run's pending prompt: an
// approval's own options as buttons. Open is the body click (the
// sender's default action, which servers that draw it label "Open"), so
// no second Open button.
func PromptNote(r run.RunState) Note {
	p := r.Pending
	n := Note{Key: PromptKey(r.RunID, p.ID), Kind: KindNeedsYou, RunID: r.RunID, SessionID: r.SessionID, PromptID: p.ID, Urgent: true}
	who := agentName(r)
	title := sessionTitle(r)
	if p.Kind == run.PendingClarify {
		n.Summary = fmt.Sprintf("%s has a question — %s", who, title)
		n.Body = oneLine(prose(p.Title), 300)
	} else {
		n.Summary = fmt.Sprintf("%s needs approval — %s", who, title)
		n.Body = oneLine(prose(p.Title), 200)
		if p.Command != "" {
			n.Body += "\n" + oneLine(p.Command, 200)
		}
		if p.Unexplained {
			// Allowing what nobody can see takes the window's second
			// click (docs/ARCHITECTURE.md §`approval.requested`): here only
			// the refusals; a click on the notification opens the session.
			n.Body = "The agent did not say what it wants to do — open it to decide."
		}
		for _, o := range p.Options {
			if o.ID == "" || p.Unexplained && !strings.HasPrefix(o.Kind, "reject") {
				continue
			}
			label := o.Label
			if label == "" {
				label = o.ID
			}
			n.Actions = append(n.Actions, Action{Key: ChoiceAction(p.ID, o.ID), Label: oneLine(label, 40)})
		}
	}
	return n
}

// EndedNote tells one or several ended runs in one notification.
func EndedNote(rs []run.RunState, batch int) Note {
	n := Note{Key: fmt.Sprintf("ended:%d", batch), Kind: KindFinished}
	failed := 0
	for _, r := range rs {
		if r.Status != run.StatusCompleted {
			failed++
		}
	}
	if failed > 0 {
		n.Kind = KindFailed
	}
	n.RunID, n.SessionID = rs[0].RunID, rs[0].SessionID
	if len(rs) == 1 {
		r := rs[0]
		if failed == 1 {
			n.Summary = fmt.Sprintf("Failed — %s", sessionTitle(r))
			n.Body = agentName(r) + " stopped with an error"
			if r.Error != "" {
				n.Body += ": " + oneLine(prose(r.Error), 200)
			}
		} else {
			n.Summary = fmt.Sprintf("Finished — %s", sessionTitle(r))
			n.Body = agentName(r) + " is done"
		}
		return n
	}
	done := len(rs) - failed
	switch {
	case failed == 0:
		n.Summary = fmt.Sprintf("%d runs finished", done)
	case done == 0:
		n.Summary = fmt.Sprintf("%d runs failed", failed)
	default:
		n.Summary = fmt.Sprintf("%d finished, %d failed", done, failed)
	}
	var lines []string
	for i, r := range rs {
		if i == 5 {
			lines = append(lines, fmt.Sprintf("and %d more", len(rs)-5))
			break
		}
		lines = append(lines, sessionTitle(r)+" — "+traystateWords(r))
	}
	n.Body = strings.Join(lines, "\n")
	return n
}

func traystateWords(r run.RunState) string {
	if r.Status == run.StatusCompleted {
		return "finished"
	}
	return "failed"
}

func agentName(r run.RunState) string {
	if a := oneLine(r.AgentName, 40); a != "" {
		return a
	}
	if a := oneLine(r.Agent, 40); a != "" {
		return a
	}
	return "The agent"
}

// sessionTitle names the run's session, and the host it runs on when that
// is not this machine (docs/ARCHITECTURE.md §Remote cores).
func sessionTitle(r run.RunState) string {
	t := oneLine(r.SessionTitle, 60)
	if t == "" {
		t = "Untitled session"
	}
	if h := oneLine(r.Where(), 40); h != "" {
		t += " (on " + h + ")"
	}
	return t
}

// oneLine makes agent text safe for a notification line: no control or
// bidi characters, bounded length. Markup is escaped by the sender where
// the server reads it.
func oneLine(s string, n int) string { return traystate.Truncate(traystate.Clean(s), n) }

// prose drops Markdown's code-span backticks from agent prose (a title,
// an error): notification servers show them raw. A command is shown as
// is: what is approved is what is shown.
func prose(s string) string { return strings.ReplaceAll(s, "`", "") }

func sortedRuns(m map[string]run.RunState) []run.RunState {
	st := traystate.New()
	for _, r := range m {
		rc := r
		st.Apply(run.WatchMessage{Type: run.WatchRunChanged, Run: &rc})
	}
	return st.Runs()
}
