// Where a run's files live in the data dir (runs/<id>/…).

package supervisor

import (
	"os"
	"path/filepath"

	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

func (s *Supervisor) runDir(runID string) string { return control.RunDir(s.cfg.DataDir, runID) }

func (s *Supervisor) specPath(runID string) string {
	return filepath.Join(s.runDir(runID), control.SpecFile)
}

func (s *Supervisor) lockPath(runID string) string {
	return filepath.Join(s.runDir(runID), control.LockFile)
}

func (s *Supervisor) logPath(runID string) string {
	return filepath.Join(s.runDir(runID), control.LogFile)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
