package merge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
)

func TestPushToALocalBareRemote(t *testing.T) {
	r := newRepo(t)
	bare := filepath.Join(t.TempDir(), "remote.git")
	gitT(t, r.top, "init", "-q", "--bare", bare)
	gitT(t, r.top, "remote", "add", "origin", bare)
	// A receive hook the remote's config names: the push must not run it.
	marker := filepath.Join(t.TempDir(), "ran")
	gitcmdtest.Write(t, filepath.Join(bare, "hooks", "pre-receive"), "#!/bin/sh\ntouch "+marker+"\n")
	os.Chmod(filepath.Join(bare, "hooks", "pre-receive"), 0o755)
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
	head := r.commit(t, r.wt, "a")
	got, err := Push(context.Background(), r.target)
	if err != nil {
		t.Fatal(err)
	}
	if got.Remote != "origin" || gitT(t, bare, "rev-parse", "refs/heads/hermesdesk/ws") != head {
		t.Errorf("%+v", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the remote's hook ran")
	}
}

func TestPushRefusesAnotherTransport(t *testing.T) {
	r := newRepo(t)
	marker := filepath.Join(t.TempDir(), "ran")
	gitT(t, r.top, "remote", "add", "origin", "ext::sh -c touch% "+marker)
	_, err := Push(context.Background(), r.target)
	if !errors.Is(err, ErrRefused) || !strings.Contains(Reason(err), "whose transport Hermes Desk does not open") {
		t.Fatalf("%v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the ext:: command ran")
	}
}

func TestPushWithoutARemote(t *testing.T) {
	r := newRepo(t)
	if _, err := Push(context.Background(), r.target); !errors.Is(err, ErrRefused) || !strings.Contains(Reason(err), "no remote") {
		t.Fatalf("%v", err)
	}
}

func TestPullRequestWithoutGH(t *testing.T) {
	r := newRepo(t)
	git := filepath.Dir(lookGit(t))
	empty := t.TempDir()
	gitcmdtest.Write(t, filepath.Join(empty, "git"), "#!/bin/sh\nexec "+filepath.Join(git, "git")+" \"$@\"\n")
	os.Chmod(filepath.Join(empty, "git"), 0o755)
	t.Setenv("PATH", empty)
	_, err := OpenPullRequest(context.Background(), r.target, "T", "B")
	if !errors.Is(err, ErrRefused) || !strings.Contains(Reason(err), "GitHub CLI (gh) is not installed") {
		t.Fatalf("%v", err)
	}
}
