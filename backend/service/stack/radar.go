package stack

import (
	"context"
	"log/slog"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/radar"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// radarSource is what the conflict radar reads of the journal: the
// journaled workspaces only (no `git worktree list` per pass).
type radarSource struct{ j *journal.Store }

func (s radarSource) Workspaces(ctx context.Context, projectID string) ([]run.Workspace, error) {
	return s.j.ListWorkspaces(ctx, projectID)
}

func (s radarSource) SessionWorkspace(ctx context.Context, sessionID string) (string, error) {
	ses, err := s.j.GetSession(ctx, sessionID)
	return ses.WorkspaceID, err
}

// startRadar runs the conflict radar (docs/ARCHITECTURE.md §Conflict
// radar) on its own goroutine until stop: the bus marks the sessions whose
// runs changed files, its answers go back on the bus. The projects that
// have ready worktrees get one pass now, off the start-up path, so the
// overlaps made before this start are known.
func startRadar(j *journal.Store, svc *service.Service, log *slog.Logger) (*radar.Radar, func()) {
	rad := radar.New(radarSource{j}, radar.RealGit(), log.With("component", "radar"))
	rad.Publish = svc.ConflictsChanged
	svc.SetRadar(rad)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if list, err := j.ListWorkspaces(ctx, ""); err != nil {
			log.Warn("radar: the workspaces could not be listed", "err", err)
		} else {
			for _, w := range radar.Active(list) {
				rad.Project(w.ProjectID)
			}
		}
		rad.Run(ctx)
	}()
	return rad, func() { cancel(); <-done }
}
