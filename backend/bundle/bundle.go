// Package bundle is the portable form of a session: its events as JSON
// Lines after a one-line manifest (docs/ARCHITECTURE.md §Bundles). Encode
// and Decode are pure; the journal exports and imports them.
package bundle

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Format names the file kind on the manifest line.
const Format = "hermesdesk.session-bundle"

// Version is the bundle format this build writes and the newest it reads.
const Version = 1

// MaxLine bounds one line (an event) of a bundle.
const MaxLine = 16 << 20

// ErrBundle is the class of every refusal to read a bundle; the error's
// text says what is wrong in plain words.
var ErrBundle = errors.New("bundle")

// Manifest is the bundle's first line: what it holds and who wrote it.
type Manifest struct {
	Format     string          `json:"format"`
	Version    int             `json:"version"`
	ExportedAt time.Time       `json:"exported_at"`
	AppVersion string          `json:"app_version,omitempty"`
	Project    Project         `json:"project"`
	Session    run.Session     `json:"session"`
	Messages   []run.Message   `json:"messages"`
	Runs       []Run           `json:"runs"`
	Extra      json.RawMessage `json:"extra,omitempty"`
}

// Project is where the session was, for people to read.
type Project struct {
	Name      string `json:"name"`
	Workspace string `json:"workspace,omitempty"`
}

// Run is a run's row, enough to replay and label it.
type Run struct {
	ID                 string     `json:"id"`
	UserMessageID      string     `json:"user_message_id"`
	AssistantMessageID string     `json:"assistant_message_id"`
	Agent              string     `json:"agent"`
	Model              string     `json:"model,omitempty"`
	Status             run.Status `json:"status"`
	Error              string     `json:"error,omitempty"`
	CreatedAt          time.Time  `json:"created_at"`
	EndedAt            *time.Time `json:"ended_at,omitempty"`
}

// ErrAlreadyImported says the same bundle is already a session here; the
// import gives that session back and stores nothing.
var ErrAlreadyImported = errors.New("this bundle is already imported")

// ImportOptions say where an import goes and how it is recognised
// (docs/ARCHITECTURE.md §Bundles).
type ImportOptions struct {
	// Source names the bundle for people (its file name).
	Source string
	// ProjectID is a project the person named; empty: the Imported place.
	ProjectID string
	// Digest identifies the bundle's bytes (sha256, hex), so importing the
	// same bundle twice is recognised.
	Digest string
	// NativeSessionID is the agent's own session id, set only when the
	// import is that agent's own history (backend/history), so the session
	// can continue in it; a bundle from another machine leaves it empty.
	NativeSessionID string
}

// Bundle is a decoded bundle.
type Bundle struct {
	Manifest Manifest
	// Events by run id, each in seq order.
	Events map[string][]run.Event
}

// Encode writes b: the manifest line, then every run's events in order.
func Encode(w io.Writer, b Bundle) error {
	bw := bufio.NewWriter(w)
	m := b.Manifest
	m.Format, m.Version = Format, Version
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("bundle: write manifest: %w", err)
	}
	for _, r := range m.Runs {
		for _, ev := range b.Events[r.ID] {
			if err := enc.Encode(ev); err != nil {
				return fmt.Errorf("bundle: write event %s: %w", ev.EventID, err)
			}
		}
	}
	return bw.Flush()
}

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrBundle}, args...)...)
}

// Decode reads and checks a whole bundle. It refuses, with a sentence a
// person can act on, anything that is not a bundle, a newer format, and
// events that do not belong (unknown run, seq out of order, bad type).
func Decode(r io.Reader) (Bundle, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return Bundle{}, bad("this file cannot be read as a session bundle: %v", err)
		}
		return Bundle{}, bad("this file is empty, not a session bundle")
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if json.Unmarshal(sc.Bytes(), &head) != nil || head.Format != Format {
		return Bundle{}, bad("this file is not a Hermes Desk session bundle")
	}
	if head.Version > Version {
		return Bundle{}, bad("this bundle was made by a newer Hermes Desk (format %d; this one reads up to %d): update Hermes Desk to import it", head.Version, Version)
	}
	if head.Version < 1 {
		return Bundle{}, bad("this bundle has no valid format version")
	}
	var m Manifest
	if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
		return Bundle{}, bad("the bundle's manifest is damaged: %v", err)
	}
	if m.Session.ID == "" {
		return Bundle{}, bad("the bundle's manifest names no session")
	}
	b := Bundle{Manifest: m, Events: map[string][]run.Event{}}
	runs := map[string]bool{}
	for _, r := range m.Runs {
		if r.ID == "" || runs[r.ID] {
			return Bundle{}, bad("the bundle's manifest lists a run without an id, or one twice")
		}
		runs[r.ID] = true
	}
	line := 1
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var ev run.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return Bundle{}, bad("line %d of the bundle is not a valid event: %v", line, err)
		}
		if !runs[ev.RunID] {
			return Bundle{}, bad("line %d of the bundle is an event of a run the manifest does not list", line)
		}
		evs := b.Events[ev.RunID]
		if ev.Seq <= 0 || (len(evs) > 0 && ev.Seq <= evs[len(evs)-1].Seq) {
			return Bundle{}, bad("line %d of the bundle is out of order (seq %d)", line, ev.Seq)
		}
		if ev.Type == "" || len(ev.Payload) == 0 || !json.Valid(ev.Payload) {
			return Bundle{}, bad("line %d of the bundle is an event without a type or payload", line)
		}
		if len(evs) > 0 && evs[len(evs)-1].Type == run.EventDone {
			return Bundle{}, bad("line %d of the bundle follows its run's end", line)
		}
		b.Events[ev.RunID] = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		return Bundle{}, bad("the bundle cannot be read past line %d: %v", line, err)
	}
	return b, nil
}
