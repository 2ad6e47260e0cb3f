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

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A checkpoint killed (SIGKILL) mid-way is finished or dropped at start:
// dropped when its ref was not written yet, finished when it was.
func TestKilledCheckpointIsFinishedOrDroppedAtStart(t *testing.T) {
	gitcmdtest.Need(t)
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

// An undo killed while writing files is kept as interrupted at start, and
// undoing it puts every file it was writing back as it was before it.
func TestKilledUndoIsInterruptedAndCanBeUndone(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	for i := 0; i < 5; i++ {
		put(t, filepath.Join(ws, fmt.Sprintf("f%d.txt", i)), "before\n", 0o644)
	}
	runAround(t, l, data, ws, "run_1", func() {
		for i := 0; i < 5; i++ {
			put(t, filepath.Join(ws, fmt.Sprintf("f%d.txt", i)), "by the run\n", 0o644)
		}
	})
	afterRun := tree(t, ws)
	l.Close()

	child := exec.Command(os.Args[0], "-test.run=^TestHelperUndoUntilKilled$")
	child.Env = append(os.Environ(), "HERMESDESK_TEST_UNDO="+data+"\n"+ws)
	out, _ := child.StdoutPipe()
	in, _ := child.StdinPipe()
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || strings.TrimSpace(line) != "at wrote" {
		t.Fatalf("the child said %q, %v", line, err)
	}
	child.Process.Kill() // SIGKILL, one file written of five
	child.Wait()
	in.Close()

	l = ledger(t, data)
	if err := Recover(ctx, l); err != nil {
		t.Fatal(err)
	}
	recs, _ := l.ListCheckpoints(ctx, run.CheckpointFilter{Kind: run.CheckpointUndo})
	if len(recs) != 1 || recs[0].State != run.CheckpointInterrupted || recs[0].Before == "" {
		t.Fatalf("the killed undo at start: %+v", recs)
	}
	if _, err := Undo(ctx, l, data, recs[0].ID); err != nil {
		t.Fatal(err)
	}
	same(t, "after undoing the killed undo", tree(t, ws), afterRun)
}

// TestHelperUndoUntilKilled is the child of the test above.
func TestHelperUndoUntilKilled(t *testing.T) {
	arg := os.Getenv("HERMESDESK_TEST_UNDO")
	if arg == "" {
		t.Skip("helper process")
	}
	data, _, _ := strings.Cut(arg, "\n") // the workspace is in the record
	step = func(s string) {
		if s == "wrote" {
			fmt.Println("at " + s)
			var b [1]byte
			os.Stdin.Read(b[:]) // until killed
		}
	}
	l := ledger(t, data)
	Undo(context.Background(), l, data, "cp_run_1")
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
