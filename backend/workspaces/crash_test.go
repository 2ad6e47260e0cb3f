package workspaces

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/journal"
)

// TestMain doubles as the helper process the crash test kills: with
// WS_HELPER_STOP_AT set it creates a workspace and, at that step, says so
// and waits for its kill -9.
func TestMain(m *testing.M) {
	if stop := os.Getenv("WS_HELPER_STOP_AT"); stop != "" {
		os.Exit(helperMain(stop))
	}
	os.Exit(m.Run())
}

func helperMain(stop string) int {
	st, err := journal.Open(os.Getenv("WS_HELPER_DB"), journal.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	mg := New(st, nil, nil)
	mg.step = func(step string) {
		if step == stop {
			fmt.Println("at " + step)
			select {} // until killed
		}
	}
	_, err = mg.CreateWith(context.Background(), os.Getenv("WS_HELPER_PROJECT"), "", crashTitle, nil)
	fmt.Fprintln(os.Stderr, "helper was not stopped:", err)
	return 1
}

// crashTitle names the branch: recovery must use the name the row
// recorded, which the id alone cannot give.
const crashTitle = "Fix the login bug"

// TestKillDuringCreation kills a real process creating a worktree between
// claim and lock, then recovers as a restarted app would: the workspace is
// finished or rolled back, never a stray worktree or branch.
func TestKillDuringCreation(t *testing.T) {
	for _, tc := range []struct {
		stop string
		// cutShort mimics a `git worktree add` killed mid-checkout: the
		// worktree is there with git's own "initializing" lock.
		cutShort bool
		want     string
	}{
		{stop: StateClaimed, want: StateFailed},
		{stop: StateClaimed, cutShort: true, want: StateFailed},
		{stop: "added", want: StateReady},
		{stop: StateCreated, want: StateReady},
		{stop: "locked", want: StateReady},
	} {
		t.Run(fmt.Sprintf("%s cut short %v", tc.stop, tc.cutShort), func(t *testing.T) {
			ctx := context.Background()
			repo := newRepo(t)
			db := filepath.Join(t.TempDir(), "j.db")
			st, p := openStore(t, db, repo)

			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "WS_HELPER_STOP_AT="+tc.stop, "WS_HELPER_DB="+db, "WS_HELPER_PROJECT="+p.ID)
			cmd.Stderr = os.Stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil || strings.TrimSpace(line) != "at "+tc.stop {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("helper said %q, %v", line, err)
			}
			cmd.Process.Kill() // SIGKILL: no deferred clean-up runs
			cmd.Wait()

			ws, err := st.ListWorkspaces(ctx, "")
			if err != nil || len(ws) != 1 {
				t.Fatalf("workspaces %+v, %v", ws, err)
			}
			w := ws[0]
			slug, _ := Slug(w.ID)
			if want := "hermesdesk/fix-the-login-bug-" + slug[:4]; w.Branch != want {
				t.Fatalf("claimed branch %q, want %q", w.Branch, want)
			}
			if tc.cutShort {
				git(t, repo, "worktree", "add", "-q", "-b", w.Branch, w.Path, w.BaseCommit)
				git(t, repo, "worktree", "lock", "--reason", "initializing", w.Path)
			}

			if err := New(st, nil, nil).RecoverAll(ctx); err != nil {
				t.Fatal(err)
			}
			w, _ = st.GetWorkspace(ctx, w.ID)
			if w.State != tc.want {
				t.Fatalf("state %s (note %q), want %s", w.State, w.Note, tc.want)
			}
			list := git(t, repo, "worktree", "list", "--porcelain")
			branches := git(t, repo, "branch", "--list", "hermesdesk/*")
			_, dirErr := os.Stat(w.Path)
			switch tc.want {
			case StateFailed:
				if strings.Contains(list, w.Path) || branches != "" || !os.IsNotExist(dirErr) {
					t.Fatalf("stray after roll back: worktrees\n%s\nbranches %q, folder %v", list, branches, dirErr)
				}
				if !strings.Contains(w.Note, "Rolled back") {
					t.Fatalf("note %q", w.Note)
				}
			case StateReady:
				if !strings.Contains(list, "locked hermesdesk "+w.ID) || dirErr != nil {
					t.Fatalf("not finished: worktrees\n%s\nfolder %v", list, dirErr)
				}
				if !strings.Contains(w.Note, "finished at the next start") {
					t.Fatalf("note %q", w.Note)
				}
			}
		})
	}
}
