package checkpoints

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A checkpoint killed (SIGKILL) mid-way is finished or dropped at start:
// dropped when its ref was not written yet, finished when it was.
func TestKilledCheckpointIsFinishedOrDroppedAtStart(t *testing.T) {
	needGit(t)
	for _, tc := range []struct {
		stopAt string
		kept   bool
	}{
		{"recorded", false},
		{"committed", false},
		{"ref", true},
	} {
		t.Run(tc.stopAt, func(t *testing.T) {
			ctx := context.Background()
			data, ws := t.TempDir(), t.TempDir()
			git(t, ws, "init", "-q")
			put(t, filepath.Join(ws, "a.txt"), "a\n", 0o644)
			git(t, ws, "add", "a.txt")
			staged := git(t, ws, "diff", "--cached", "--raw")

			child := exec.Command(os.Args[0], "-test.run=^TestHelperCheckpointUntilKilled$")
			child.Env = append(os.Environ(), "HERMESDESK_TEST_CHECKPOINT="+data+"\n"+ws+"\n"+tc.stopAt)
			out, _ := child.StdoutPipe()
			in, _ := child.StdinPipe() // the child waits on it
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil || strings.TrimSpace(line) != "at "+tc.stopAt {
				t.Fatalf("the child said %q, %v", line, err)
			}
			child.Process.Kill() // SIGKILL
			child.Wait()
			in.Close()

			l := ledger(t, data)
			recs, _ := l.ListCheckpoints(ctx, run.CheckpointFilter{})
			if len(recs) != 1 || recs[0].State != run.CheckpointTaking {
				t.Fatalf("before recovery: %+v", recs)
			}
			if err := Recover(ctx, l); err != nil {
				t.Fatal(err)
			}
			recs, _ = l.ListCheckpoints(ctx, run.CheckpointFilter{})
			switch {
			case tc.kept && (len(recs) != 1 || recs[0].State != run.CheckpointKept || recs[0].Before == ""):
				t.Errorf("a checkpoint whose ref was written is not finished: %+v", recs)
			case !tc.kept && len(recs) != 0:
				t.Errorf("a checkpoint without its ref is not dropped: %+v", recs)
			}
			if got := git(t, ws, "diff", "--cached", "--raw"); got != staged {
				t.Errorf("the person's index moved: %q, was %q", got, staged)
			}
			if _, err := os.Stat(filepath.Join(ws, ".git", "index.lock")); !os.IsNotExist(err) {
				t.Errorf("the person's index is locked: %v", err)
			}
		})
	}
}

// TestHelperCheckpointUntilKilled is the child of the test above: it takes
// a checkpoint and stops at a step until it is killed.
func TestHelperCheckpointUntilKilled(t *testing.T) {
	arg := os.Getenv("HERMESDESK_TEST_CHECKPOINT")
	if arg == "" {
		t.Skip("helper process")
	}
	parts := strings.Split(arg, "\n")
	data, ws, stopAt := parts[0], parts[1], parts[2]
	step = func(s string) {
		if s == stopAt {
			fmt.Println("at " + s)
			var b [1]byte
			os.Stdin.Read(b[:]) // until killed
		}
	}
	l := ledger(t, data)
	Before(context.Background(), l, Target{DataDir: data, Workspace: ws, SessionID: "ses_1", TurnID: "turn_1", RunID: "run_1"})
}
