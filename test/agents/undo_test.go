package agents

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Each real agent's edits undone (issue 26, docs/ARCHITECTURE.md
// §Checkpoints): the fake model's undo scenario has the real CLI edit
// keep.txt, create made.txt and delete gone.txt with its own edit tools
// and make run.sh executable with its shell; then, through the service,
// Undo that run puts the tree back exactly as before, undoing the undo
// brings the agent's changes back, and Restore to before the message
// puts it back again. In a git project where the person has something
// staged, which stays staged, and in a plain folder (a shadow repository
// in the data dir; the folder never gains a .git).
func TestRealClaudeEditsUndone(t *testing.T) { editsUndoneBoth(t, claudeCase) }
func TestRealCodexEditsUndone(t *testing.T)  { editsUndoneBoth(t, codexCase) }
func TestRealGeminiEditsUndone(t *testing.T) { editsUndoneBoth(t, geminiCase) }

const undoMsg = "[scenario:undo] change the files"

func editsUndoneBoth(t *testing.T, c agentCase) {
	t.Run("git project", func(t *testing.T) { editsUndone(t, c, true) })
	t.Run("plain folder", func(t *testing.T) { editsUndone(t, c, false) })
}

func editsUndone(t *testing.T, c agentCase, gitProject bool) {
	e := newEnv(t, c.agent, c.cfg(t))
	ws := e.workspace
	writeFile(t, ws, "keep.txt", "one\ntwo\nthree\n", 0o644)
	writeFile(t, ws, "gone.txt", "to be deleted\n", 0o644)
	writeFile(t, ws, "run.sh", "#!/bin/sh\necho run\n", 0o644)
	writeFile(t, ws, "staged.txt", "committed\n", 0o644)
	staged := func() string { return "" }
	if gitProject {
		gitcmdtest.Git(t, ws, "init", "-q")
		gitcmdtest.Git(t, ws, "add", ".")
		gitcmdtest.Git(t, ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
		writeFile(t, ws, "staged.txt", "staged by the person\n", 0o644)
		gitcmdtest.Git(t, ws, "add", "staged.txt")
		staged = func() string { return gitcmdtest.Git(t, ws, "diff", "--cached", "--raw") }
	}
	writeFile(t, ws, "untracked.txt", "the person's, untracked\n", 0o644)
	stagedBefore := staged()
	before := treeOf(t, ws)

	res := e.runTurn(undoMsg, e.approveWith("allow_once", new(int)))
	j := e.journal(res.RunID)
	if j.done.Status != run.StatusCompleted || !strings.Contains(j.text(), "Done:") {
		t.Fatalf("done %+v, text %q; events %v", j.done, j.text(), j.types())
	}
	after := treeOf(t, ws)
	wantAfter := map[string]string{
		"keep.txt": "100644 one\ntwo, edited by the agent\nthree\n",
		"made.txt": "100644 made by the agent\n",
		"run.sh":   "100755 #!/bin/sh\necho run\n",
	}
	for name, want := range wantAfter {
		if after[name] != want {
			t.Errorf("after the run %s = %q, want %q", name, after[name], want)
		}
	}
	if _, ok := after["gone.txt"]; ok {
		t.Error("the agent did not delete gone.txt")
	}
	if t.Failed() {
		for _, ev := range j.events {
			if ev.Type == run.EventToolStarted || ev.Type == run.EventToolDone {
				t.Logf("%s %s", ev.Type, ev.Payload)
			}
		}
		t.Fatalf("the agent's edits did not all happen; tree %v", after)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	svc := e.st.Service
	undo, err := svc.UndoRun(ctx, res.RunID)
	if err != nil {
		t.Fatalf("undo: %v", err)
	}
	sameTree(t, "after the undo", treeOf(t, ws), before)
	if got := staged(); got != stagedBefore {
		t.Errorf("the person's staged change moved: %q, was %q", got, stagedBefore)
	}
	if _, err := svc.UndoCheckpoint(ctx, undo.Checkpoint.ID); err != nil {
		t.Fatalf("undo the undo: %v", err)
	}
	sameTree(t, "after undoing the undo", treeOf(t, ws), after)

	turn := ""
	recs, err := svc.Checkpoints(ctx, e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.RunID == res.RunID {
			turn = r.TurnID
		}
	}
	if turn == "" {
		t.Fatalf("no checkpoint of run %s in %+v", res.RunID, recs)
	}
	if _, err := svc.Restore(ctx, service.RestoreRequest{SessionID: e.session.ID, TurnID: turn, RemoveCreated: true}); err != nil {
		t.Fatalf("restore: %v", err)
	}
	sameTree(t, "after restoring to before the message", treeOf(t, ws), before)
	if got := staged(); got != stagedBefore {
		t.Errorf("the person's staged change moved: %q, was %q", got, stagedBefore)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git")); !gitProject && err == nil {
		t.Error("the plain folder gained a .git")
	}
}

func writeFile(t *testing.T, dir, name, body string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// treeOf is every file under dir but .git: its git mode (100644, 100755,
// 120000 with the link's target) and content.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = "120000 " + target
			return err
		case info.Mode()&0o111 != 0:
			b, err := os.ReadFile(p)
			out[rel] = "100755 " + string(b)
			return err
		default:
			b, err := os.ReadFile(p)
			out[rel] = "100644 " + string(b)
			return err
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	var diffs []string
	for k, v := range want {
		if got[k] != v {
			diffs = append(diffs, fmt.Sprintf("%s: %q, want %q", k, got[k], v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: %q, not expected", k, v))
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("%s the tree differs:\n%s", what, strings.Join(diffs, "\n"))
	}
}
