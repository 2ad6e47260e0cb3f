package remote

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/bundle"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// JournalStore is what the local copy needs of the journal: the two doors
// the agents' histories are mirrored through (backend/history), so a
// remote session is kept exactly as an imported one — indexed for search,
// readable with the host away, its runs appended as they end
// (docs/ARCHITECTURE.md §Remote cores, §History).
type JournalStore interface {
	ImportSession(ctx context.Context, b bundle.Bundle, o bundle.ImportOptions) (run.Session, error)
	AppendImported(ctx context.Context, digest string, b bundle.Bundle, lastMayChange bool) (run.Session, int, error)
}

// Copier keeps a local copy of each remote session's journal.
type Copier struct {
	st     JournalStore
	lookup Lookup
	log    *slog.Logger
}

// NewCopier copies into st the sessions of the hosts lookup finds.
func NewCopier(st JournalStore, lookup Lookup, log *slog.Logger) *Copier {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Copier{st: st, lookup: lookup, log: log}
}

// Digest is what the copy of host's session is recognised by.
func Digest(host, sessionID string) string { return "remote:" + host + ":" + sessionID }

// Source is the copy's badge: where the session runs.
func Source(host string) string { return "host " + host }

// OnMessage copies a session when one of its runs ended on the host (a
// Follower's Options.Message, after the events are kept; the end of a run
// that ended while the link was down is told once, on reconnect).
func (c *Copier) OnMessage(ctx context.Context, host string, m run.WatchMessage) {
	if m.Type != run.WatchRunChanged || m.Run == nil || !m.Run.Status.Terminal() {
		return
	}
	if _, err := c.Copy(ctx, host, m.Run.SessionID); err != nil {
		c.log.Warn("remote: cannot keep a local copy of a session", "host", host, "session", m.Run.SessionID, "err", err)
	}
}

// Copy stores the host's session's ended runs the local copy lacks and
// returns how many it added (0: the copy was current).
func (c *Copier) Copy(ctx context.Context, host, sessionID string) (int, error) {
	link, ok := c.lookup(host)
	if !ok {
		return 0, fmt.Errorf("there is no host named %s", host)
	}
	var exp service.Export
	path := "/api/sessions/" + url.PathEscape(sessionID) + "/export?format=" + service.ExportBundle
	if err := httpapi.NewLocalClient(link.Socket()).Call(ctx, "GET", path, nil, &exp); err != nil {
		return 0, fmt.Errorf("read session %s from host %s: %w", sessionID, host, err)
	}
	b, err := bundle.Decode(strings.NewReader(exp.Content))
	if err != nil {
		return 0, fmt.Errorf("read session %s from host %s: %w", sessionID, host, err)
	}
	b = endedRuns(b)
	if len(b.Manifest.Runs) == 0 {
		return 0, nil
	}
	digest := Digest(host, sessionID)
	_, added, err := c.st.AppendImported(ctx, digest, b, false)
	if err == nil {
		return added, nil
	}
	if !errors.Is(err, journal.ErrNotFound) {
		return 0, fmt.Errorf("keep session %s of host %s: %w", sessionID, host, err)
	}
	if _, err := c.st.ImportSession(ctx, b, bundle.ImportOptions{Source: Source(host), Digest: digest}); err != nil {
		return 0, fmt.Errorf("keep session %s of host %s: %w", sessionID, host, err)
	}
	return len(b.Manifest.Runs), nil
}

// endedRuns keeps the runs up to the first one still going (with their
// messages): the copy's cursor is its number of runs, so a run is copied
// once, whole, after its end.
func endedRuns(b bundle.Bundle) bundle.Bundle {
	m := b.Manifest
	n := 0
	for n < len(m.Runs) && m.Runs[n].Status.Terminal() {
		n++
	}
	later := map[string]bool{} // the runs left out and their messages
	for _, r := range m.Runs[n:] {
		later[r.ID], later[r.UserMessageID], later[r.AssistantMessageID] = true, true, true
	}
	var msgs []run.Message
	for _, msg := range m.Messages {
		if !later[msg.ID] && (msg.RunID == "" || !later[msg.RunID]) {
			msgs = append(msgs, msg)
		}
	}
	m.Runs, m.Messages = m.Runs[:n], msgs
	return bundle.Bundle{Manifest: m, Events: b.Events}
}
