// Package checkpoints_test undoes a real run end to end: the data dir's
// stack (journal, supervisor, shim, the demo agent writing a file through
// ACP), then the service's undo, in a git project and in a plain folder
// (docs/ARCHITECTURE.md §Checkpoints).
package checkpoints_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/stack"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

var testBin string

// TestMain builds shimhost: `shim` and `demo-agent` with the app's code.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hd-cp-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testBin = filepath.Join(dir, "hermesdesk")
	root, _ := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	cmd := exec.Command("go", "build", "-tags", "sqlite_fts5,webkit2_41", "-o", testBin, "./testkit/shimhost")
	cmd.Dir = strings.TrimSpace(string(root))
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build shimhost: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestUndoADemoRunThatWroteAFile(t *testing.T) {
	gitcmdtest.Need(t)
	for _, gitProject := range []bool{true, false} {
		name := map[bool]string{true: "git project", false: "plain folder"}[gitProject]
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			root, err := os.MkdirTemp("", "hd-cp-") // short: sockets live under it
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(root) })
			data, ws := filepath.Join(root, "data"), filepath.Join(root, "work")
			os.MkdirAll(ws, 0o700)
			os.WriteFile(filepath.Join(ws, "keep.txt"), []byte("the person's\n"), 0o644)
			if gitProject {
				git := exec.Command("git", "init", "-q")
				git.Dir = ws
				if out, err := git.CombinedOutput(); err != nil {
					t.Fatalf("git init: %v %s", err, out)
				}
			}
			t.Setenv("HERMESDESK_HOME", data)
			t.Setenv("XDG_RUNTIME_DIR", root)
			t.Cleanup(func() { runprocs.KillAll(data) })
			st, err := stack.Open(ctx, stack.Options{DataDir: data, Executable: testBin, WarmIdle: -1})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			svc := st.Service
			p, err := svc.CreateProject(ctx, service.CreateProjectRequest{Name: "p", Workspace: ws})
			if err != nil {
				t.Fatal(err)
			}
			s, err := svc.CreateSession(ctx, service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"})
			if err != nil {
				t.Fatal(err)
			}
			r, err := svc.StartRun(ctx, run.StartRequest{SessionID: s.ID, Message: "/scenario tool\ngo", ClientRequestID: service.NewRequestID()})
			if err != nil {
				t.Fatal(err)
			}
			// Until the run's done: its checkpoint after is kept before it.
			if err := svc.Follow(ctx, r.RunID, 0, func(run.Event, bool) error { return nil }); err != nil {
				t.Fatal(err)
			}
			hello := filepath.Join(ws, "hello.txt")
			if b, err := os.ReadFile(hello); err != nil || string(b) != "hello from the demo agent\n" {
				t.Fatalf("the demo agent did not write hello.txt: %q %v", b, err)
			}
			watch, err := svc.Watch(ctx)
			if err != nil {
				t.Fatal(err)
			}
			<-watch // the snapshot

			res, err := svc.UndoRun(ctx, r.RunID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(hello); !os.IsNotExist(err) {
				t.Errorf("hello.txt is still there after the undo: %v", err)
			}
			if b, _ := os.ReadFile(filepath.Join(ws, "keep.txt")); string(b) != "the person's\n" {
				t.Errorf("the person's file changed: %q", b)
			}
			if _, err := os.Stat(filepath.Join(ws, ".git")); gitProject == os.IsNotExist(err) {
				t.Errorf("the folder's .git: %v (git project %v)", err, gitProject)
			}
			for m := range watch {
				if m.Type == run.WatchCheckpointChanged {
					if m.Checkpoint == nil || m.Checkpoint.ID != res.Checkpoint.ID || m.Checkpoint.Kind != run.CheckpointUndo {
						t.Errorf("checkpoint.changed: %+v", m.Checkpoint)
					}
					break
				}
			}
			// Undo the undo: hello.txt is back.
			if _, err := svc.UndoCheckpoint(ctx, res.Checkpoint.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(hello); err != nil {
				t.Errorf("hello.txt did not come back with the redo: %v", err)
			}
			u, err := svc.CheckpointUsage(ctx)
			if err != nil || u.Checkpoints != 3 {
				t.Errorf("usage = %+v, %v", u, err)
			}
		})
	}
}
