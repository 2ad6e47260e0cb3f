package shim

import (
	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A forked session's first run (docs/ARCHITECTURE.md §Checkpoints, native
// forks): the agent is asked to fork its own session; where it did, it is
// given the message alone, else the conversation handed over ahead of it.

// nativeFork is the fork the agent is asked for: none once the session
// has a native session of its own (it is resumed instead).
func (r *runner) nativeFork() *run.NativeFork {
	if r.spec.NativeSessionID != "" || r.spec.Fork == nil {
		return nil
	}
	return r.spec.Fork
}

// forkRequest is nativeFork with where the agent's fork ends, read from
// the agent's own files where it forks at a message.
func (r *runner) forkRequest() *run.NativeFork {
	f := r.nativeFork()
	if f == nil || f.At != "" {
		return f
	}
	out := *f
	at, err := history.ForkPoint(r.spec.Agent, r.spec.Config, out)
	if err != nil {
		r.log.Info("no fork point in the agent's files", "agent", r.spec.Agent, "err", err)
	}
	out.At = at
	return &out
}

// message is what the agent on conn is given for this run.
func (r *runner) message(conn adapter.Conn) string {
	if r.nativeFork() == nil || r.spec.HandoverMessage == "" {
		return r.spec.Message
	}
	if f, ok := conn.(adapter.Forker); ok && f.ForkedNatively() {
		r.log.Info("agent forked its session natively", "from", r.spec.Fork.From, "turns", r.spec.Fork.Turns)
		return r.spec.Message
	}
	r.log.Info("agent did not fork natively; the conversation is handed over", "from", r.spec.Fork.From)
	return r.spec.HandoverMessage
}
