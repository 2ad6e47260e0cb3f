package acp

import (
	"context"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A forked session's first run (docs/ARCHITECTURE.md §Checkpoints, native
// forks): ACP's unstable session/fork, offered as
// agentCapabilities.sessionCapabilities.fork, copies a session whole, so
// it is asked for only when the fork keeps every turn (f.All). Otherwise,
// or when the agent refuses, the session is a new one and the shim hands
// the conversation over instead.

// fork asks the agent to fork f.From, its answer (a session/new's
// shape) into sess; false when it was not asked.
func (c *conn) fork(ctx context.Context, f run.NativeFork, offered bool, sess any) bool {
	if !offered || !f.All || f.From == "" {
		c.log.Info("acp: no native fork", "offered", offered, "whole", f.All)
		return false
	}
	req := acpsdk.UnstableForkSessionRequest{SessionId: acpsdk.SessionId(f.From), Cwd: c.ws.dir, McpServers: []acpsdk.UnstableMcpServer{}}
	// Some agents replay the history on a fork as on a load: not this
	// run's output.
	err := c.rpc.callHook(ctx, "session/fork", req, sess, func(id int64) { c.loadID.Store(id) })
	c.loadID.Store(0)
	if err != nil {
		c.log.Warn("acp: the agent did not fork its session; the conversation is handed over", "from", f.From, "err", err)
		return false
	}
	c.awaitReplayEnd(ctx)
	return true
}

// ForkedNatively implements adapter.Forker.
func (c *conn) ForkedNatively() bool { return c.forked }
