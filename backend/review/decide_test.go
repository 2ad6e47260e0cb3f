package review

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestReviewable(t *testing.T) {
	for _, c := range []struct {
		name string
		w    run.Workspace
		want string // a word the refusal holds; "" reviewable
	}{
		{"ready worktree", run.Workspace{Kind: "worktree", State: "ready", Base: "main"}, ""},
		{"base commit only", run.Workspace{Kind: "worktree", State: "ready", BaseCommit: "abc"}, ""},
		{"checkout", run.Workspace{Kind: "checkout", State: "ready", Base: "main"}, "checkout"},
		{"archived", run.Workspace{Kind: "worktree", State: "archived", Base: "main"}, "archived"},
		{"no base", run.Workspace{Kind: "worktree", State: "ready"}, "no base"},
	} {
		got := Reviewable(c.w)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A mark holds for the blob it was made at: a file changed since it was
// viewed is unviewed again.
func TestFilesViewedOnlyAtTheMarkedBlob(t *testing.T) {
	changed := []run.FileChanged{
		{Path: "a.go", Action: "modified", Added: 2, Removed: 1},
		{Path: "b.go", Action: "created", Added: 5},
		{Path: "c.go", Action: "deleted", Removed: 3},
		{Path: "d.png", Action: "modified", Binary: true},
		{Path: "e.go", Action: "modified", Added: 1},
	}
	blobs := map[string]string{"a.go": "a2", "b.go": "b1", "c.go": "", "d.png": "d1", "e.go": "e1"}
	marks := []run.ReviewMark{{Path: "a.go", Blob: "a1"}, {Path: "b.go", Blob: "b1"}, {Path: "c.go", Blob: ""}, {Path: "gone.go", Blob: "x"}}
	got := Files(changed, blobs, marks, nil)
	want := []run.ReviewFile{
		{Path: "a.go", Status: "modified", Added: 2, Removed: 1, Blob: "a2", Viewed: false},
		{Path: "b.go", Status: "added", Added: 5, Blob: "b1", Viewed: true},
		{Path: "c.go", Status: "deleted", Removed: 3, Blob: "", Viewed: true},
		{Path: "d.png", Status: "modified", Binary: true, Blob: "d1"},
		{Path: "e.go", Status: "modified", Added: 1, Blob: "e1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestCheckComment(t *testing.T) {
	ok := run.ReviewComment{Path: "a.go", Side: run.SideNew, Line: 3, Text: "rename this"}
	for _, c := range []struct {
		name string
		edit func(*run.ReviewComment)
		want string
	}{
		{"fine", func(*run.ReviewComment) {}, ""},
		{"old side", func(c *run.ReviewComment) { c.Side = run.SideOld }, ""},
		{"no path", func(c *run.ReviewComment) { c.Path = " " }, "path"},
		{"bad side", func(c *run.ReviewComment) { c.Side = "left" }, "side"},
		{"line 0", func(c *run.ReviewComment) { c.Line = 0 }, "line"},
		{"empty text", func(c *run.ReviewComment) { c.Text = "\n " }, "empty"},
		{"too long", func(c *run.ReviewComment) { c.Text = strings.Repeat("x", MaxCommentBytes+1) }, "64 KiB"},
		{"not utf-8", func(c *run.ReviewComment) { c.Quote = "\xff" }, "UTF-8"},
	} {
		cm := ok
		c.edit(&cm)
		got := CheckComment(cm)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSessionFor(t *testing.T) {
	t0 := time.Unix(1000, 0)
	sessions := []run.Session{
		{ID: "s1", WorkspaceID: "w1", UpdatedAt: t0},
		{ID: "s2", WorkspaceID: "w1", UpdatedAt: t0.Add(time.Hour)},
		{ID: "s3", WorkspaceID: "w2", UpdatedAt: t0.Add(2 * time.Hour)},
		{ID: "s4", UpdatedAt: t0.Add(3 * time.Hour)},
	}
	for _, c := range []struct{ ws, named, want string }{
		{"w1", "", "s2"},   // the one updated last
		{"w1", "s1", "s1"}, // the one named
		{"w1", "s3", ""},   // named, but of another workspace
		{"w2", "", "s3"},
		{"w9", "", ""},
	} {
		if got := SessionFor(sessions, c.ws, c.named); got != c.want {
			t.Errorf("SessionFor(%s, %q) = %q, want %q", c.ws, c.named, got, c.want)
		}
	}
}

func TestDrafts(t *testing.T) {
	all := []run.ReviewComment{{ID: "1", State: run.CommentSent}, {ID: "2", State: run.CommentDraft}, {ID: "3", State: run.CommentDraft}}
	got := Drafts(all)
	if len(got) != 2 || got[0].ID != "2" || got[1].ID != "3" {
		t.Errorf("%+v", got)
	}
}

func TestRenamesArePaired(t *testing.T) {
	recs := parseNameStatus([]byte("R087\x00old.go\x00new.go\x00M\x00keep.go\x00R100\x00x\x00y\x00D\x00gone\x00"))
	if len(recs) != 4 || recs[0] != (statusPath{"R", "old.go", "new.go"}) || recs[1] != (statusPath{"M", "", "keep.go"}) {
		t.Fatalf("%+v", recs)
	}
	files := []run.FileChanged{
		{Path: "keep.go", Action: "modified"},
		{Path: "new.go", Action: "created", Added: 9},
		{Path: "old.go", Action: "deleted", Removed: 8},
		{Path: "y", Action: "created"}, // x is not in the list: not paired
		{Path: "gone", Action: "deleted"},
	}
	renames := Renames(recs, files)
	if !reflect.DeepEqual(renames, map[string]string{"new.go": "old.go"}) {
		t.Fatalf("renames: %v", renames)
	}
	patch := run.FileChanged{Path: "new.go", Action: "renamed", Added: 1, Removed: 1}
	got := PairRenames(files, renames, map[string]run.FileChanged{"new.go": patch})
	var paths []string
	for _, f := range got {
		paths = append(paths, f.Path+":"+f.Action)
	}
	if want := []string{"keep.go:modified", "new.go:renamed", "y:created", "gone:deleted"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("paired: %v, want %v", paths, want)
	}
	// Without its patch a rename stays a deletion and an addition.
	if got := PairRenames(files, renames, nil); len(got) != len(files) {
		t.Errorf("unpaired: %+v", got)
	}
	if rf := Files(got, nil, nil, renames); rf[1].Status != "renamed" || rf[1].OldPath != "old.go" {
		t.Errorf("the list's entry: %+v", rf[1])
	}
}
