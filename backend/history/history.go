// Package history reads the agents' own conversation files (Claude Code's
// projects/*.jsonl, Codex's rollouts, …) as the journal's own events, so an
// imported conversation shows tool cards, reasoning and usage exactly like a
// run made in the app (docs/ARCHITECTURE.md §History).
//
// One Format per agent file format, behind one small interface: where the
// agent keeps its files (Root), which files are sessions (Discover), and
// one file read as a Session (Parse). Every Format passes the same
// conformance suite (conformance_test.go).
package history

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Format is one agent's history format.
type Format interface {
	// Agent is the agent id the app runs it under ("claude", "codex").
	Agent() string
	// Root is where the agent keeps its history, from its environment
	// (getenv) and the person's home dir.
	Root(getenv func(string) string, home string) string
	// Discover lists the session files under root, sorted; a missing root
	// is no error (the agent was never used here).
	Discover(root string) ([]string, error)
	// Parse reads one session file's complete lines. file is recorded in
	// the Origin only.
	Parse(r io.Reader, file string) (*Session, error)
	// WatchDir is the folder under root the mirror watches (with its
	// subfolders); Match says whether a file there is a session, as
	// Discover would list it.
	WatchDir(root string) string
	Match(root, path string) bool
}

// Formats lists every format this build reads.
func Formats() []Format { return []Format{Claude{}, Codex{}, Gemini{}, Qwen{}, OpenCode{}, Hermes{}} }

// Origin says where an imported session came from, so it can be traced back
// and continued in its own agent under its own id.
type Origin struct {
	Agent    string `json:"agent"`
	Version  string `json:"version,omitempty"` // the CLI version that wrote the file
	File     string `json:"file"`
	NativeID string `json:"native_id"` // the agent's own session id (claude --resume ID)
	// ResumeID, when set, is the id the agent resumes the conversation by,
	// when that is not NativeID (Hermes Agent goes on in a new session
	// after compressing one; NativeID stays the first, so the conversation
	// keeps its digest).
	ResumeID string `json:"resume_id,omitempty"`
}

// Event is one journal event, as a live run would have written it.
type Event struct {
	Type    run.EventType `json:"type"`
	Payload any           `json:"payload"`
}

// Turn is one exchange: it starts with message.user and ends with done
// (carrying the turn's usage), like one run in the journal.
type Turn struct {
	At     time.Time `json:"at"`
	Events []Event   `json:"events"`
}

// Skipped is a line that could not be read, with the reason; the rest of the
// file is still imported.
type Skipped struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// Session is one conversation read from one file.
type Session struct {
	Origin    Origin    `json:"origin"`
	Workspace string    `json:"workspace,omitempty"` // the folder it was recorded in
	Title     string    `json:"title,omitempty"`
	Model     string    `json:"model,omitempty"`
	Started   time.Time `json:"started"`
	Updated   time.Time `json:"updated"`
	Turns     []Turn    `json:"turns"`
	Skipped   []Skipped `json:"skipped,omitempty"`
	// Offset is how many bytes of complete lines were read: a last line
	// still being written (no newline yet) waits for its end.
	Offset int64 `json:"offset"`
	// Open: the agent has not ended the last turn yet (a tool is still
	// running, no answer yet); it is stored once it ends (see Stored).
	Open bool `json:"open,omitempty"`
	// Unmarked: the format has no turn-end mark (Gemini CLI), so a last
	// turn that reads as ended may still grow (a text written before a
	// tool call waiting for approval reads as the answer); the journal
	// replaces it when a later read of it differs (journal.AppendImported).
	Unmarked bool `json:"-"` // a property of the format, not of the reading (kept out of the goldens)
}

// settled is how long a file must be left alone before an open last turn
// counts as ended anyway (the agent stopped mid-turn and went away).
const settled = 10 * time.Minute

// Stored is the turns to store now: all but an open last turn, unless the
// file has not changed for a while (modTime).
func (s *Session) Stored(modTime, now time.Time) []Turn {
	if s.Open && len(s.Turns) > 0 && now.Sub(modTime) < settled {
		return s.Turns[:len(s.Turns)-1]
	}
	return s.Turns
}

// Read opens path read-only (never locked or written) and parses it; a
// database format's path is a ref (Database).
func Read(f Format, path string) (*Session, error) {
	if db, ok := f.(Database); ok {
		return db.ReadRef(path)
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s history %s: %w", f.Agent(), path, err)
	}
	defer fh.Close()
	return f.Parse(fh, path)
}

// ErrNotSession: the file is not a conversation of this format (counted
// and skipped by callers, never fatal).
var ErrNotSession = errors.New("not a conversation file of this agent")

// maxLine bounds one line; a longer one is skipped with the reason (a
// person's pasted image can make Claude Code lines megabytes long).
const maxLine = 64 << 20

// eachLine calls fn with every complete line of r and its 1-based number.
// A last line without its newline is left unread: the agent is still
// writing it. It returns the bytes consumed.
func eachLine(r io.Reader, skip func(Skipped), fn func(n int, line []byte)) (int64, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var off int64
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return off, nil // a partial last line waits
		}
		if err != nil {
			return off, fmt.Errorf("read line %d: %w", n, err)
		}
		off += int64(len(line))
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
		case len(line) > maxLine:
			skip(Skipped{Line: n, Reason: fmt.Sprintf("line is %d bytes (limit %d)", len(line), maxLine)})
		default:
			fn(n, line)
		}
	}
}

// turns collects events into turns.
type turns struct {
	list  []Turn
	usage *run.Usage
	stop  string
}

func (t *turns) start(at time.Time, id, text string) {
	t.end()
	t.list = append(t.list, Turn{At: at, Events: []Event{{run.EventMessageUser, run.MessageUser{MessageID: id, Text: text}}}})
}

// add appends to the current turn; events before the first user message
// (the agent's own preamble) have no turn and are dropped.
func (t *turns) add(typ run.EventType, p any) {
	if len(t.list) == 0 {
		return
	}
	cur := &t.list[len(t.list)-1]
	cur.Events = append(cur.Events, Event{typ, p})
}

func (t *turns) addUsage(u run.Usage) {
	if len(t.list) == 0 {
		return
	}
	if t.usage == nil {
		t.usage = &run.Usage{}
	}
	t.usage.InputTokens += u.InputTokens
	t.usage.OutputTokens += u.OutputTokens
	t.usage.ReasoningTokens += u.ReasoningTokens
	t.usage.CachedTokens += u.CachedTokens
	if u.ContextWindow > 0 {
		t.usage.ContextWindow = u.ContextWindow
	}
}

// end closes the current turn with done, as the run layer does after a
// live turn.
func (t *turns) end() { t.endWith(run.StatusCompleted) }

func (t *turns) endWith(st run.Status) {
	if len(t.list) == 0 {
		return
	}
	cur := &t.list[len(t.list)-1]
	if n := len(cur.Events); n > 0 && cur.Events[n-1].Type == run.EventDone {
		return
	}
	cur.Events = append(cur.Events, Event{run.EventDone, run.Done{Status: st, Usage: t.usage, StopReason: t.stop}})
	t.usage, t.stop = nil, ""
}

func parseTime(s string) time.Time {
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return ts.UTC()
}

// titleOf is the first line of the first message, shortened.
func titleOf(s string) string {
	s = strings.TrimSpace(s)
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return s
}

func (s *Session) touch(at time.Time) {
	if at.IsZero() {
		return
	}
	if s.Started.IsZero() || at.Before(s.Started) {
		s.Started = at
	}
	if at.After(s.Updated) {
		s.Updated = at
	}
}

// noNativeResume is a Format whose agent cannot go on in its own saved
// session from a new process (docs/ARCHITECTURE.md §History).
type noNativeResume interface{ noNativeResume() }

// noNativeResume: Gemini CLI (0.61.0) answers ACP session/load in a new
// process with "No previous sessions found for this project".
func (Gemini) noNativeResume() {}

// ResumesNatively says whether a conversation imported from agent's own
// history goes on in the agent under its own session id. When it does not,
// Continue hands the conversation to the agent with the first message
// instead (service.ContinueSession).
func ResumesNatively(agent string) bool {
	for _, f := range Formats() {
		if f.Agent() == agent {
			_, no := f.(noNativeResume)
			return !no
		}
	}
	return true
}
