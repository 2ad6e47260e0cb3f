package stack

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// A data folder that can no longer take work — deleted while running, or
// its database files made read-only — is reported by deep health and new
// runs are refused with a plain reason, instead of "ok" and runs that are
// accepted and then fail or are lost.
func TestUnusableDataDirRefusesRunsAndFailsHealth(t *testing.T) {
	tests := []struct {
		name string
		// mount: the data folder lives on a tmpfs (root only; the CI runs
		// as root, where chmod cannot make files read-only).
		mount   bool
		breakIt func(t *testing.T, dataDir string, remountRO func())
		want    string // in the refusal and in deep health
	}{
		{"data folder deleted", false, func(t *testing.T, dir string, _ func()) {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}, "deleted"},
		{"database read-only", os.Geteuid() == 0, func(t *testing.T, dir string, remountRO func()) {
			if remountRO != nil {
				remountRO()
				return
			}
			for _, f := range []string{DBFile, DBFile + "-wal", DBFile + "-shm"} {
				os.Chmod(filepath.Join(dir, f), 0o400)
			}
			t.Cleanup(func() {
				for _, f := range []string{DBFile, DBFile + "-wal", DBFile + "-shm"} {
					os.Chmod(filepath.Join(dir, f), 0o600)
				}
			})
		}, "read-only"},
		{"disk full", true, func(t *testing.T, dir string, _ func()) {
			fillDisk(t, dir)
		}, "disk is full"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			var remountRO func()
			if tc.mount {
				parent, remountRO = tmpfsOrSkip(t, "16m")
			}
			dir := filepath.Join(parent, "data")
			ctx := context.Background()
			// The shim binary is never started (runs are refused or none is
			// asked for): a small program keeps the tmpfs small.
			st, err := Open(ctx, Options{DataDir: dir, Executable: "/bin/true", Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			ws := t.TempDir()
			p, err := st.Service.CreateProject(ctx, service.CreateProjectRequest{Workspace: ws})
			if err != nil {
				t.Fatal(err)
			}
			ses, err := st.Service.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"})
			if err != nil {
				t.Fatal(err)
			}
			if h := st.Service.Health(ctx); !h.OK || h.Database != "ok" {
				t.Fatalf("healthy data folder: %+v", h)
			}
			tc.breakIt(t, dir, remountRO)
			_, err = st.Service.StartRun(ctx, run.StartRequest{SessionID: ses.ID, Message: "hi", ClientRequestID: "r1"})
			var se *service.Error
			if !errors.As(err, &se) || se.Code != service.CodeUnavailable || !strings.Contains(se.Message, tc.want) {
				t.Fatalf("start run: %v, want unavailable saying %q", err, tc.want)
			}
			h := st.Service.Health(ctx)
			if h.OK || !strings.Contains(h.Database, tc.want) {
				t.Fatalf("deep health: %+v, want not ok saying %q", h, tc.want)
			}
		})
	}
}
