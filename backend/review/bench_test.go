package review

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The review of a worktree of a 20,000-file repository with 50 changed
// files: one read (snapshot, diff against the merge-base, blobs).
//
//	go test -tags sqlite_fts5 -run '^$' -bench Review20000 -benchtime 5x ./backend/review/
func BenchmarkReview20000(b *testing.B) {
	repo := b.TempDir()
	git(b, repo, "init", "-q", "-b", "main")
	git(b, repo, "config", "gc.auto", "0") // no background gc racing the cleanup
	for d := 0; d < 200; d++ {
		for i := 0; i < 100; i++ {
			gitcmdtest.Write(b, filepath.Join(repo, fmt.Sprintf("d%03d/f%03d.txt", d, i)), fmt.Sprintf("file %d %d\nline two\nline three\n", d, i))
		}
	}
	git(b, repo, "add", "-A")
	git(b, repo, "commit", "-q", "-m", "20,000 files")
	wt := filepath.Join(b.TempDir(), "wt")
	git(b, repo, "worktree", "add", "-q", "-b", "hermesdesk/b", wt, "main")
	for i := 0; i < 50; i++ {
		gitcmdtest.Write(b, filepath.Join(wt, fmt.Sprintf("d%03d/f000.txt", i)), "changed\n")
	}
	w := run.Workspace{ID: "wsp_b", Kind: "worktree", State: "ready", Path: wt, Base: "main"}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		work, err := readWork(ctx, w)
		if err != nil || len(work.files) != 50 {
			b.Fatalf("%d files, %v", len(work.files), err)
		}
	}
}
