package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// BenchmarkTenWorktreeRunsInParallel is the issue's figure "ten sessions
// in ten worktrees of one repository each complete a run in parallel"
// (docs/ARCHITECTURE.md §Workspaces, "Figures"): the real `serve`, real
// shims and the demo agent; it prints the wall time for the ten and each
// run's status and fails when one did not complete or wrote outside its
// worktree. Run: go test -tags sqlite_fts5 -run '^$' -bench TenWorktree -benchtime 1x ./backend/cli/
func BenchmarkTenWorktreeRunsInParallel(b *testing.B) {
	const n = 10
	for range b.N {
		b.StopTimer()
		dataDir := newDataDir(b)
		srv := startServe(b, dataDir)
		c := httpapi.NewClient(srv.url, srv.token)
		ctx := context.Background()
		repo := b.TempDir()
		gitcmdtest.Init(b, repo)
		var p run.Project
		if err := c.Call(ctx, "POST", "/api/projects", service.CreateProjectRequest{Workspace: repo}, &p); err != nil {
			b.Fatal(err)
		}
		sessions := make([]run.Session, n)
		made := time.Now()
		for i := range sessions {
			if err := c.Call(ctx, "POST", "/api/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo", Workspace: "worktree"}, &sessions[i]); err != nil {
				b.Fatal(err)
			}
		}
		makeTook := time.Since(made)

		b.StartTimer()
		start := time.Now()
		type result struct {
			status string
			took   time.Duration
			err    error
		}
		results := make([]result, n)
		var wg sync.WaitGroup
		for i, ses := range sessions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var res run.StartResult
				req := run.StartRequest{SessionID: ses.ID, Message: "/scenario tool", ClientRequestID: service.NewRequestID()}
				if err := c.Call(ctx, "POST", "/api/runs", req, &res); err != nil {
					results[i].err = err
					return
				}
				if err := c.Follow(ctx, res.RunID, 0, func(run.Event) error { return nil }); err != nil {
					results[i].err = err
					return
				}
				results[i].took = time.Since(start)
				var r struct {
					Status string `json:"status"`
				}
				results[i].err = c.Call(ctx, "GET", "/api/runs/"+res.RunID, nil, &r)
				results[i].status = r.Status
			}()
		}
		wg.Wait()
		wall := time.Since(start)
		b.StopTimer()

		fmt.Printf("ten worktree runs in parallel: %d worktrees made in %v (one at a time); the ten runs took %v wall\n", n, makeTook.Round(time.Millisecond), wall.Round(time.Millisecond))
		for i, r := range results {
			fmt.Printf("  run %2d: %-10s done after %v\n", i+1, r.status, r.took.Round(time.Millisecond))
			if r.err != nil || r.status != string(run.StatusCompleted) {
				b.Errorf("run %d: %s %v", i+1, r.status, r.err)
			}
		}
		written, _ := filepath.Glob(filepath.Join(repo, ".worktrees", "*", "hello.txt"))
		if len(written) != n {
			b.Errorf("hello.txt in %d worktrees, want %d: %v", len(written), n, written)
		}
		if _, err := os.Stat(filepath.Join(repo, "hello.txt")); err == nil {
			b.Error("a run wrote into the checkout")
		}
		b.ReportMetric(float64(wall.Milliseconds()), "ms-wall/10runs")
		srv.stop()
	}
}
