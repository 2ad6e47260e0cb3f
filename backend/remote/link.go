// Package remote follows the cores of other hosts (docs/ARCHITECTURE.md
// §Remote cores): a remote core's API reaches this machine as a local unix
// socket (backend/hosts forwards it over SSH); a Follower reads that core's
// watch bus, keeps every run's events up to a durable cursor, and catches
// up gaplessly after the link dropped.
package remote

import (
	"context"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Link is one host's API as the SSH link hands it over. backend/hosts'
// Link is what it is (apihost hands each over); tests give a unix-socket relay they can cut.
type Link interface {
	// Host is the host's id: the tag its runs carry on the local bus and
	// the key of its cursors.
	Host() string
	// Socket is the local unix socket on which the host's core answers
	// (the forwarded socket; it may be absent while the link is down).
	Socket() string
	// Up receives each time the link came (back) up, so a follower
	// waiting out its back-off reconnects at once instead of at the
	// next tick. A link that never says so may return nil.
	Up() <-chan struct{}
}

// linkName is how a person calls the link's host (run.HostLabel): its
// Name (the ssh target a *hosts.Link has) when it has one, else its id.
func linkName(l Link) string {
	target := ""
	if n, ok := l.(interface{ Name() string }); ok {
		target = n.Name()
	}
	return run.HostLabel(l.Host(), target)
}

// Sink keeps what a Follower received, durably, with its cursor: the
// cursor is what was stored, so a restart (even after kill -9) resumes
// from exactly there — no gap, no duplicate.
type Sink interface {
	// Cursors returns, for host, each run's last stored seq.
	Cursors(ctx context.Context, host string) (map[string]int64, error)
	// Store keeps evs (one run's, seq increasing by one from its cursor
	// + 1) atomically: all of them or none.
	Store(ctx context.Context, host string, evs []run.Event) error
}
