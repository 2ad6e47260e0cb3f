//go:build unix

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/review"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// The review of a worktree through the real serve, shims and demo agent
// (docs/ARCHITECTURE.md §Review): `workspaces review` lists the run's
// file and its diff; a line comment sent reaches the agent as one message
// with the path, line and text (the demo agent recalls what it was
// given); review.changed is on the watch bus; a revert removes the file
// and undoing its checkpoint brings it back.
func TestEndToEndReviewRoundTrip(t *testing.T) {
	gitcmdtest.Need(t)
	dataDir := newDataDir(t)
	srv := startServe(t, dataDir)
	defer srv.stop()
	repo := t.TempDir()
	gitcmdtest.Init(t, repo)
	e, out, errOut := cliEnv(dataDir, nil)
	if code := e.Ask([]string{"--agent", "demo", "--project", repo, "--worktree", "/scenario tool"}); code != 0 {
		t.Fatalf("ask: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	e, out, _ = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"ls", "--project", repo}); code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	id := strings.Fields(lines[len(lines)-1])[0]

	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"review", id}); code != 0 || !strings.Contains(out.String(), "added") || !strings.Contains(out.String(), "hello.txt") {
		t.Fatalf("workspaces review: %d\n%s%s", code, out.String(), errOut.String())
	}
	e, out, errOut = cliEnv(dataDir, nil)
	if code := e.Workspaces([]string{"review", id, "--diff", "hello.txt"}); code != 0 || !strings.Contains(out.String(), "+hello from the demo agent") {
		t.Fatalf("workspaces review --diff: %d\n%s%s", code, out.String(), errOut.String())
	}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	c := httpapi.NewLocalClient(httpapi.SocketPath(dataDir))
	bus, err := c.Watch(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	var cm run.ReviewComment
	if err := c.Call(ctx, "POST", "/api/workspaces/"+id+"/review/comments",
		review.CommentRequest{Path: "hello.txt", Side: "new", Line: 1, Quote: "hello from the demo agent", Text: "say goodbye instead"}, &cm); err != nil {
		t.Fatal(err)
	}
	for m := range bus {
		if m.Type == run.WatchReviewChanged && m.Review != nil && m.Review.WorkspaceID == id {
			break
		}
	}
	var sent review.SendResult
	if err := c.Call(ctx, "POST", "/api/workspaces/"+id+"/review/send", nil, &sent); err != nil {
		t.Fatal(err)
	}
	if len(sent.Comments) != 1 || sent.Comments[0].State != run.CommentSent || sent.Run.RunID == "" {
		t.Fatalf("sent: %+v", sent)
	}
	if code := e.Runs([]string{"tail", sent.Run.RunID}); code != 0 {
		t.Fatalf("the review's run: %d", code)
	}
	var recall run.StartResult
	if err := c.Call(ctx, "POST", "/api/runs", run.StartRequest{SessionID: sent.Run.SessionID, Message: "/scenario recall",
		ClientRequestID: service.NewRequestID()}, &recall); err != nil {
		t.Fatal(err)
	}
	e, out, _ = cliEnv(dataDir, nil)
	if code := e.Runs([]string{"tail", recall.RunID}); code != 0 {
		t.Fatalf("recall: %d", code)
	}
	said := out.String()
	for _, want := range []string{review.MessageHeader, `hello.txt:1`, `say goodbye instead`} {
		if !strings.Contains(said, want) {
			t.Errorf("the agent was not given %q; it recalls:\n%s", want, said)
		}
	}
	// The transcript's message of the review carries its comments (the card).
	var detail service.SessionDetail
	if err := c.Call(ctx, "GET", "/api/sessions/"+sent.Run.SessionID, nil, &detail); err != nil {
		t.Fatal(err)
	}
	carried := 0
	for _, m := range detail.Messages {
		if m.RunID == sent.Run.RunID && m.Role == run.RoleUser {
			carried = len(m.Review)
			if carried == 1 && (m.Review[0].Path != "hello.txt" || m.Review[0].Line != 1) {
				t.Errorf("the message's review: %+v", m.Review)
			}
		}
	}
	if carried != 1 {
		t.Errorf("the review's message carries %d comments, want 1", carried)
	}
	var rv run.Review
	if err := c.Call(ctx, "GET", "/api/workspaces/"+id+"/review", nil, &rv); err != nil || len(rv.Comments) != 1 || rv.Comments[0].RunID != sent.Run.RunID {
		t.Fatalf("review after send: %+v %v", rv, err)
	}

	var reverted run.CheckpointResult
	if err := c.Call(ctx, "POST", "/api/workspaces/"+id+"/review/revert", review.RevertRequest{Path: "hello.txt"}, &reverted); err != nil {
		t.Fatal(err)
	}
	made, _ := filepath.Glob(filepath.Join(repo, ".worktrees", "*"))
	hello := filepath.Join(made[0], "hello.txt")
	if _, err := os.Stat(hello); !os.IsNotExist(err) || reverted.Checkpoint == nil {
		t.Fatalf("after revert: %v %+v", err, reverted)
	}
	var undone run.CheckpointResult
	if err := c.Call(ctx, "POST", "/api/checkpoints/"+reverted.Checkpoint.ID+"/undo", nil, &undone); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(hello); err != nil || string(b) != "hello from the demo agent\n" {
		t.Fatalf("after undoing the revert: %q %v", b, err)
	}
}
