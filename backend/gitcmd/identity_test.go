package gitcmd_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

// A commit written with Identity names Hermes Desk and the email as its
// author and committer, with no name of git's own to fall back on.
func TestIdentityWritesTheCommit(t *testing.T) {
	gitcmdtest.Need(t)
	ctx := context.Background()
	dir := t.TempDir()
	gitcmdtest.Git(t, dir, "init", "-q")
	tree, err := gitcmd.Output(ctx, dir, "write-tree")
	if err != nil {
		t.Fatal(err)
	}
	out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: dir, Env: gitcmd.Identity("x@hermesdesk.invalid"),
		Args: []string{"commit-tree", strings.TrimSpace(tree), "-m", "m"}})
	if err != nil {
		t.Fatal(err)
	}
	who, err := gitcmd.Output(ctx, dir, "log", "-1", "--format=%an <%ae> %cn <%ce>", strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Hermes Desk <x@hermesdesk.invalid> Hermes Desk <x@hermesdesk.invalid>"; strings.TrimSpace(who) != want {
		t.Fatalf("the commit says %q, want %q", who, want)
	}
}
