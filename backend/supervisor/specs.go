package supervisor

import (
	"context"
	"os"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// removeEndedSpecs deletes the spec files of runs that are no longer
// active: older versions kept them after the run, with the user's message
// as typed and the agent's keys (docs/ARCHITECTURE.md §Security, secrets).
// The specs are listed before the active runs are read: a spec is written
// only after its run is committed, so a spec seen here whose run is not
// active then belongs to a run that has ended.
func (s *Supervisor) removeEndedSpecs(ctx context.Context) {
	specs, err := filepath.Glob(filepath.Join(s.cfg.DataDir, "runs", "*", control.SpecFile))
	if err != nil || len(specs) == 0 {
		return
	}
	runs, err := s.cfg.Store.ActiveRuns(ctx)
	if err != nil {
		return
	}
	active := make(map[string]bool, len(runs))
	for _, r := range runs {
		active[r.ID] = true
	}
	removed := 0
	for _, p := range specs {
		if id := filepath.Base(filepath.Dir(p)); !active[id] {
			if os.Remove(p) == nil {
				removed++
			}
		}
	}
	if removed > 0 {
		s.log.Info("removed the specs of ended runs", "count", removed)
	}
}
