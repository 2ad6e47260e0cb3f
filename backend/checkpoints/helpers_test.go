package checkpoints

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/journal"
)

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return gitcmdtest.Git(t, dir, args...)
}

// ledger opens a real journal in a temporary data dir.
func ledger(t testing.TB, dataDir string) *journal.Store {
	t.Helper()
	j, err := journal.Open(filepath.Join(dataDir, "hermesdesk.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func put(t testing.TB, p, s string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(p)
	if err := os.WriteFile(p, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, mode)
}

// tree reads every file under dir (not .git): content, mode and link
// targets, byte for byte.
func tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.IsDir() {
			if fi.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "link:" + l
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[rel] = fi.Mode().Perm().String() + ":" + string(b)
		}
		return nil
	})
	return out
}

func same(t testing.TB, what string, got, want map[string]string) {
	t.Helper()
	var diffs []string
	for k, v := range want {
		if got[k] != v {
			diffs = append(diffs, k+": got "+quote(got[k])+" want "+quote(v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, k+": unexpected "+quote(v))
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Fatalf("%s:\n%s", what, strings.Join(diffs, "\n"))
	}
}

func quote(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return "«" + s + "»"
}

// runAround takes a run's checkpoint, lets agent change the files and
// keeps the files after, as the shim does.
// personsProject makes ws a git project of seed's files, committed, with
// the person's own state on top: b.txt's edit staged, untracked.txt
// untracked — what a checkpoint, an undo and a fork must leave as it was.
func personsProject(t *testing.T, ws string) {
	t.Helper()
	git(t, ws, "init", "-q")
	seed(t, ws)
	git(t, ws, "add", "a.txt", "b.txt", "gone.txt", "run.sh", ".gitignore")
	git(t, ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
	put(t, filepath.Join(ws, "b.txt"), "b staged\n", 0o644)
	git(t, ws, "add", "b.txt")
	put(t, filepath.Join(ws, "untracked.txt"), "mine\n", 0o644)
}

func runAround(t testing.TB, l Ledger, dataDir, ws, runID string, agent func()) *Taken {
	t.Helper()
	ctx := context.Background()
	k, err := Before(ctx, l, Target{DataDir: dataDir, Workspace: ws, SessionID: "ses_1", TurnID: "turn_" + runID, RunID: runID})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Close() })
	agent()
	now, err := k.Snaps.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.After(ctx, now); err != nil {
		t.Fatal(err)
	}
	return k
}
