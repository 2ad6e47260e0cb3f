package journal

import (
	"context"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Remote hosts (schema version 16; docs/ARCHITECTURE.md §Hosts): the
// person's ssh targets this data dir runs agents on, and what the last
// check found there. backend/hosts owns the decisions; this is storage.

const prefixHost = "host_"

const hostsSQL = `
CREATE TABLE hosts (
	id        TEXT PRIMARY KEY,
	target    TEXT NOT NULL UNIQUE,
	status    TEXT NOT NULL,
	os        TEXT NOT NULL DEFAULT '',
	arch      TEXT NOT NULL DEFAULT '',
	version   TEXT NOT NULL DEFAULT '',
	note      TEXT NOT NULL DEFAULT '',
	added_at  INTEGER NOT NULL,
	last_seen INTEGER NOT NULL DEFAULT 0
);
`

// Host is one stored host (its wire shape is run.Host).
type Host = run.Host

const hostCols = `id, target, status, os, arch, version, note, added_at, last_seen`

func scanHost(sc rowScanner) (Host, error) {
	var h Host
	var added, seen int64
	err := sc.Scan(&h.ID, &h.Target, &h.Status, &h.OS, &h.Arch, &h.Version, &h.Note, &added, &seen)
	h.AddedAt = fromNanos(added)
	if seen != 0 {
		h.LastSeen = fromNanos(seen)
	}
	return h, err
}

// AddHost stores a new host (checked by the caller); ID and AddedAt are
// set here. A target already stored is ErrConflict.
func (s *Store) AddHost(ctx context.Context, h Host) (Host, error) {
	h.ID = newID(prefixHost)
	at := nowNanos()
	var seen int64
	if !h.LastSeen.IsZero() {
		seen = h.LastSeen.UnixNano()
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO hosts (`+hostCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		h.ID, h.Target, h.Status, h.OS, h.Arch, h.Version, h.Note, at, seen)
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE constraint failed") {
			return Host{}, fmt.Errorf("journal: host %s is already added: %w", h.Target, ErrConflict)
		}
		return Host{}, s.wrap("add host", err)
	}
	return s.GetHost(ctx, h.ID)
}

// GetHost returns one host or ErrNotFound.
func (s *Store) GetHost(ctx context.Context, id string) (Host, error) {
	return oneOf(ctx, s, "host", id, scanHost, `SELECT `+hostCols+` FROM hosts WHERE id = ?`)
}

// ListHosts returns every host, oldest first (an empty list, not nil).
func (s *Store) ListHosts(ctx context.Context) ([]Host, error) {
	out, err := listOf(ctx, s, "list hosts", scanHost, `SELECT `+hostCols+` FROM hosts ORDER BY added_at, id`)
	if out == nil && err == nil {
		out = []Host{}
	}
	return out, err
}

// UpdateHost records what a later check or start found: status, os,
// arch, version, note and last_seen (zero keeps it).
func (s *Store) UpdateHost(ctx context.Context, h Host) (Host, error) {
	var seen any
	if !h.LastSeen.IsZero() {
		seen = h.LastSeen.UnixNano()
	}
	if err := s.changeOne(ctx, "update host", "host", h.ID, `UPDATE hosts SET status = ?, os = ?, arch = ?, version = ?, note = ?,
		last_seen = COALESCE(?, last_seen) WHERE id = ?`, h.Status, h.OS, h.Arch, h.Version, h.Note, seen, h.ID); err != nil {
		return Host{}, err
	}
	return s.GetHost(ctx, h.ID)
}

// RemoveHost forgets a host (nothing on the host is touched); ErrNotFound
// when there is none.
func (s *Store) RemoveHost(ctx context.Context, id string) error {
	return s.changeOne(ctx, "remove host", "host", id, `DELETE FROM hosts WHERE id = ?`, id)
}
