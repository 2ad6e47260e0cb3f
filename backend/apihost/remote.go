package apihost

import (
	"context"
	"log/slog"

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
	return hosts
}
