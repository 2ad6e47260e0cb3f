package procio

import (
	"context"
	"fmt"
	"io"
	"log/slog"
)

// Logf writes one diagnostic record to a run's log (shim.log) in the slog
// text format the shim itself writes, so the file has one format
// (docs/ARCHITECTURE.md §Logs); the agent's own stderr lines are the only
// other thing in it. A nil w discards.
func Logf(w io.Writer, adapter, format string, args ...any) {
	if w == nil {
		return
	}
	slog.New(slog.NewTextHandler(w, nil)).Log(context.Background(), slog.LevelInfo, fmt.Sprintf(format, args...), "adapter", adapter)
}
