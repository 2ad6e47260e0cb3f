package checkpoints

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// git gc in the person's repository, however eager, never loses a kept
// checkpoint: its refs keep it.
func TestGitGCKeepsCheckpoints(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	git(t, ws, "init", "-q")
	put(t, filepath.Join(ws, "a.txt"), "never committed\n", 0o644)
	before := tree(t, ws)
	runAround(t, l, data, ws, "run_1", func() { put(t, filepath.Join(ws, "a.txt"), "changed\n", 0o644) })
	git(t, ws, "-c", "gc.reflogExpire=now", "-c", "gc.reflogExpireUnreachable=now", "gc", "-q", "--prune=now", "--aggressive")
	if _, err := Undo(ctx, l, data, "cp_run_1"); err != nil {
		t.Fatal(err)
	}
	same(t, "after gc and undo", tree(t, ws), before)
}

func TestPruneByAgeThenSizeOldestFirst(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	data, ws := t.TempDir(), t.TempDir()
	l := ledger(t, data)
	for i, id := range []string{"run_1", "run_2", "run_3"} {
		runAround(t, l, data, ws, id, func() {
			put(t, filepath.Join(ws, id+".bin"), strings.Repeat(string(rune('a'+i)), 64<<10)+id, 0o644)
		})
	}
	u, err := DiskUsage(ctx, l)
	if err != nil || u.Checkpoints != 3 || u.Repositories != 1 || u.Bytes <= 0 {
		t.Fatalf("usage = %+v, %v", u, err)
	}
	// Age: run_1 is made old.
	recs, _ := l.ListCheckpoints(ctx, run.CheckpointFilter{})
	old := recs[0]
	old.CreatedAt = time.Now().Add(-48 * time.Hour)
	l.PutCheckpoint(ctx, old)
	n, err := Prune(ctx, l, Policy{MaxAge: 24 * time.Hour, MaxBytes: 1 << 40}, time.Now())
	if err != nil || n != 1 {
		t.Fatalf("Prune by age = %d, %v", n, err)
	}
	if _, err := l.GetCheckpoint(ctx, "cp_run_1"); err == nil {
		t.Errorf("the old checkpoint is still listed")
	}
	if out := git(t, data, "--git-dir", old.GitDir, "for-each-ref", "refs/hermesdesk/"); strings.Contains(out, "turn_run_1") {
		t.Errorf("the old checkpoint's refs are still there: %s", out)
	}
	// Size: a byte limit keeps only the newest.
	n, err = Prune(ctx, l, Policy{MaxAge: 24 * time.Hour, MaxBytes: 1}, time.Now())
	if err != nil || n != 2 {
		t.Fatalf("Prune by size = %d, %v", n, err)
	}
	u, _ = DiskUsage(ctx, l)
	if u.Checkpoints != 0 || u.Bytes != 0 {
		t.Errorf("usage after pruning all = %+v", u)
	}
	if _, err := os.Stat(filepath.Join(ws, "run_3.bin")); err != nil {
		t.Errorf("pruning touched the workspace: %v", err)
	}
}

func TestPolicyFromSettings(t *testing.T) {
	p := PolicyFrom(nil) // nothing set
	if p.MaxAge != DefaultMaxAge || p.MaxBytes != DefaultMaxBytes {
		t.Errorf("defaults = %+v", p)
	}
}
