package merge

import (
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestPreviewClean(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
	r.commit(t, r.wt, "a")
	gitcmdtest.Write(t, filepath.Join(r.wt, "new.txt"), "uncommitted\n") // untracked, uncommitted
	before := r.state(t)
	p := r.preview(t, Squash)
	if !p.Clean || p.Refusal != "" || !p.Uncommitted {
		t.Fatalf("%+v", p)
	}
	if !reflect.DeepEqual(p.Files, []string{"a.txt", "new.txt"}) {
		t.Errorf("files %v", p.Files)
	}
	if p.Message != "Better a\n\n- change a\n" || p.Checkout != r.top || p.BaseCommit != gitT(t, r.top, "rev-parse", "main") {
		t.Errorf("%+v", p)
	}
	if after := r.state(t); after != before {
		t.Errorf("the preview moved something:\n%s\n---\n%s", before, after)
	}
}

func TestPreviewConflicting(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nworkspace\nthree\n")
	r.commit(t, r.wt, "ws")
	gitcmdtest.Write(t, filepath.Join(r.top, "a.txt"), "one\nbase\nthree\n")
	r.commit(t, r.top, "base")
	p := r.preview(t, Squash)
	if p.Clean || len(p.Conflicts) != 1 || p.Conflicts[0].Path != "a.txt" || p.BaseAhead != 1 {
		t.Fatalf("%+v", p)
	}
	if len(p.Conflicts[0].Messages) != 1 || !strings.Contains(p.Conflicts[0].Messages[0], "CONFLICT (content)") {
		t.Errorf("git's message: %+v", p.Conflicts)
	}
	if !strings.Contains(p.Refusal, "conflicts with main in a.txt") {
		t.Errorf("refusal %q", p.Refusal)
	}
}

func TestPreviewDirtyCheckout(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "b.txt"), "bee from the workspace\n")
	r.commit(t, r.wt, "b")
	gitcmdtest.Write(t, filepath.Join(r.top, "b.txt"), "the person's own edit\n")
	gitcmdtest.Write(t, filepath.Join(r.top, "notes.txt"), "untouched by the merge\n")
	p := r.preview(t, Merge)
	if !p.Clean || !strings.Contains(p.Refusal, "uncommitted changes the merge would overwrite in b.txt;") {
		t.Fatalf("%+v", p)
	}
}

func TestPreviewMissingBase(t *testing.T) {
	r := newRepo(t)
	r.target.Base = "gone"
	p := r.preview(t, Squash)
	if !strings.Contains(p.Refusal, `"gone" no longer exists`) {
		t.Fatalf("%+v", p)
	}
}

func TestPreviewBaseMovedAhead(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "a.txt"), "one\nTWO\nthree\n")
	r.commit(t, r.wt, "a")
	gitcmdtest.Write(t, filepath.Join(r.top, "c.txt"), "sea, moved on\n")
	r.commit(t, r.top, "c")
	p := r.preview(t, Rebase)
	if !p.Clean || p.Refusal != "" || p.BaseAhead != 1 || len(p.Notes) != 1 || !reflect.DeepEqual(p.Files, []string{"a.txt"}) {
		t.Fatalf("%+v", p)
	}
	if p.Message != "" {
		t.Errorf("a rebase keeps its commits' messages, drafted %q", p.Message)
	}
}

func TestPreviewNothingToMerge(t *testing.T) {
	r := newRepo(t)
	p := r.preview(t, Squash)
	if !strings.Contains(p.Refusal, "nothing that main does not already have") {
		t.Fatalf("%+v", p)
	}
}

// A file above the run snapshots' size limit is work like any other.
func TestPreviewTakesLargeFiles(t *testing.T) {
	r := newRepo(t)
	gitcmdtest.Write(t, filepath.Join(r.wt, "big.bin"), strings.Repeat("x", 51<<20))
	p := r.preview(t, Squash)
	if !reflect.DeepEqual(p.Files, []string{"big.bin"}) {
		t.Fatalf("files %v", p.Files)
	}
}
