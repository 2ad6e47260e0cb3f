package cli

import (
	"fmt"
	"net/url"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// runsUndo: hermesdesk runs undo RUN reverses what the run changed in its
// workspace (docs/ARCHITECTURE.md §Checkpoints); files changed since on
// the same lines stop it, named, before anything changes.
func (e *Env) runsUndo(args []string) int {
	c, id, code := e.oneRun("undo", args)
	if c == nil {
		return code
	}
	var res run.CheckpointResult
	if err := c.Call(e.ctx(), "POST", "/api/runs/"+url.PathEscape(id)+"/undo", nil, &res); err != nil {
		return e.apiFail(err)
	}
	n := 0
	for _, f := range res.Files {
		switch f.Action {
		case "write", "remove":
			n++
			fmt.Fprintf(e.Stdout, "%-7s %s%s\n", f.Action, f.Path, suffix(f.Reason))
		case "skip":
			fmt.Fprintf(e.Stdout, "%-7s %s%s\n", "skipped", f.Path, suffix(f.Reason))
		}
	}
	fmt.Fprintf(e.Stdout, "Undid %s: %d file(s) put back.", id, n)
	if res.Checkpoint != nil {
		fmt.Fprintf(e.Stdout, " To redo: POST /api/checkpoints/%s/undo", res.Checkpoint.ID)
	}
	fmt.Fprintln(e.Stdout)
	return exitOK
}
