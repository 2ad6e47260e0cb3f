package apihost

import (
	"context"
	"log/slog"

	"github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/remote"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
)

// openRemote is the supervisor's follower of other hosts' cores
// (docs/ARCHITECTURE.md §Remote cores): cursors in the journal, each
// host's bus on this one, each session copied here as its runs end.
func openRemote(ctx context.Context, st *stack.Stack, log *slog.Logger) *remote.Hosts {
	log = log.With("component", "remote")
	j, svc := st.Journal, st.Service
	var copier *remote.Copier
	hosts := remote.NewHosts(remote.JournalSink{Cursor: j}, remote.Options{Log: log, Message: func(host string, m run.WatchMessage) {
		// The copy first: once the bus tells a run's end, its session
		// reads and searches here.
		copier.OnMessage(ctx, host, m)
		svc.PublishRemote(host, m)
	}})
	copier = remote.NewCopier(j, hosts.Link, log)
	// Joined (docs/ARCHITECTURE.md §Hosts): every stored host, and each
	// one added later, is linked and its core followed until it is removed.
	if st.Hosts != nil {
		if err := st.Hosts.Keep(ctx, follower{hosts}); err != nil {
			log.Warn("remote hosts are not linked", "err", err)
		}
	}
	return hosts
}

// follower hands backend/hosts' links to backend/remote: a *hosts.Link is
// the remote.Link a Follower reads.
type follower struct{ *remote.Hosts }

func (f follower) Follow(l *hosts.Link) { f.Hosts.Follow(l) }

var _ remote.Link = (*hosts.Link)(nil)
