package claude

import (
	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// forkOf is the native fork req asks for that Claude Code can make
// (docs/ARCHITECTURE.md §Checkpoints, native forks): `--resume FROM
// --fork-session` copies the whole session, `--resume-session-at AT` ends
// the copy at a message; without AT only a fork of the whole is exact.
func forkOf(req adapter.StartRequest) *run.NativeFork {
	f := req.Fork
	if req.NativeSessionID != "" || f == nil || f.From == "" || (f.At == "" && !f.All) {
		return nil
	}
	return f
}

// ForkedNatively implements adapter.Forker.
func (c *conn) ForkedNatively() bool { return c.forked }
