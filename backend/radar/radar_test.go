package radar

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Two worktrees editing the same line (uncommitted) overlap on that file,
// with the hunk's two sides; an edit of the file beside it does not count;
// the overlap goes when one side reverts. The person's index is untouched.
func TestRadarSameLineOverlapThenRevert(t *testing.T) {
	r := newRepo(t, 0)
	a := r.worktree("a", 1)
	b := r.worktree("b", 2)
	write(t, a, "api/server.go", server(map[int]string{5: "five by a"}))
	write(t, b, "api/server.go", server(map[int]string{5: "five by b"}))
	write(t, b, "api/client.go", "client 1 by b\nclient 2\n") // the file beside: no conflict
	indexBefore, _ := os.ReadFile(filepath.Join(r.top, ".git", "worktrees", "wt-b", "index"))
	statusBefore := git(t, b, "status", "--porcelain")

	rad := New(r.src, RealGit(), nil)
	answers := running(t, rad)
	rad.Project("p")
	c := next(t, answers)
	if len(c.Overlaps) != 1 {
		t.Fatalf("overlaps = %+v, want one", c.Overlaps)
	}
	o := c.Overlaps[0]
	if o.A.WorkspaceID != "a" || o.B.WorkspaceID != "b" || o.B.Branch != "hermesdesk/b" {
		t.Fatalf("overlap between %+v and %+v", o.A, o.B)
	}
	if len(o.Files) != 1 || o.Files[0].Path != "api/server.go" {
		t.Fatalf("files = %+v, want api/server.go alone", o.Files)
	}
	h := o.Files[0].Hunks
	if len(h) != 1 || !reflect.DeepEqual(h[0].A, []string{"five by a"}) || !reflect.DeepEqual(h[0].B, []string{"five by b"}) {
		t.Fatalf("hunks = %+v", h)
	}
	if !reflect.DeepEqual(c.Lines, []string{"2 workspaces change api/server.go"}) {
		t.Fatalf("lines = %q", c.Lines)
	}
	indexAfter, _ := os.ReadFile(filepath.Join(r.top, ".git", "worktrees", "wt-b", "index"))
	if string(indexBefore) != string(indexAfter) || git(t, b, "status", "--porcelain") != statusBefore {
		t.Fatal("the radar touched the worktree's index or status")
	}

	git(t, b, "checkout", "--", "api/server.go")
	rad.FilesChanged("p", "ses-b")
	c = next(t, answers)
	if len(c.Overlaps) != 0 || len(c.Lines) != 0 {
		t.Fatalf("after b reverted: overlaps = %+v, lines %q", c.Overlaps, c.Lines)
	}
}

// Edits to different files, or to lines far apart in one file, are no
// overlap: git merges them by itself.
func TestRadarIgnoresAdjacentChanges(t *testing.T) {
	r := newRepo(t, 0)
	a := r.worktree("a", 1)
	b := r.worktree("b", 2)
	write(t, a, "api/server.go", server(map[int]string{1: "one by a"}))
	write(t, b, "api/client.go", "client 1 by b\nclient 2\n")
	write(t, b, "api/server.go", server(map[int]string{9: "nine by b"}))
	rad := New(r.src, RealGit(), nil)
	answers := running(t, rad)
	rad.Project("p")
	if c := next(t, answers); len(c.Overlaps) != 0 || !reflect.DeepEqual(c.Order, []string{"a", "b"}) {
		t.Fatalf("overlaps = %+v, order %v", c.Overlaps, c.Order)
	}
}

// Three workspaces: the one meeting the others on two files goes last; of
// the two with one conflict each, the older first.
func TestRadarThreeWorkspacesOrder(t *testing.T) {
	r := newRepo(t, 0)
	a := r.worktree("a", 1)
	b := r.worktree("b", 2)
	c := r.worktree("c", 3)
	write(t, a, "api/server.go", server(map[int]string{3: "three by a"}))
	write(t, a, "api/client.go", "client 1 by a\nclient 2\n")
	write(t, c, "api/server.go", server(map[int]string{3: "three by c"}))
	write(t, b, "api/client.go", "client 1 by b\nclient 2\n")
	rad := New(r.src, RealGit(), nil)
	answers := running(t, rad)
	rad.Project("p")
	got := next(t, answers)
	if len(got.Overlaps) != 2 {
		t.Fatalf("overlaps = %+v, want a–b and a–c", got.Overlaps)
	}
	if !reflect.DeepEqual(got.Order, []string{"b", "c", "a"}) {
		t.Fatalf("order = %v, want b, c, a", got.Order)
	}
	// Committed work counts too: b commits its edit, c reverts.
	git(t, b, "commit", "-qam", "b's client")
	git(t, c, "checkout", "--", "api/server.go")
	rad.FilesChanged("p", "ses-b")
	rad.FilesChanged("p", "ses-c")
	got = next(t, answers)
	if len(got.Overlaps) != 1 || got.Overlaps[0].B.WorkspaceID != "b" || got.Overlaps[0].Files[0].Path != "api/client.go" {
		t.Fatalf("after: overlaps = %+v", got.Overlaps)
	}
	if !reflect.DeepEqual(got.Order, []string{"c", "a", "b"}) {
		t.Fatalf("order = %v, want c, a, b", got.Order)
	}
}

// A conflicted file too large to read for hunks is still named, without
// them.
func TestRadarLargeConflictNamedWithoutHunks(t *testing.T) {
	r := newRepo(t, 0)
	a := r.worktree("a", 1)
	b := r.worktree("b", 2)
	big := func(who string) string {
		var s strings.Builder
		for s.Len() <= maxMergedFile {
			s.WriteString("a long line of the generated file, as " + who + " wrote it\n")
		}
		return s.String()
	}
	write(t, a, "gen/big.txt", big("a"))
	write(t, b, "gen/big.txt", big("b"))
	rad := New(r.src, RealGit(), nil)
	answers := running(t, rad)
	rad.Project("p")
	c := next(t, answers)
	if len(c.Overlaps) != 1 || c.Overlaps[0].Files[0].Path != "gen/big.txt" || len(c.Overlaps[0].Files[0].Hunks) != 0 {
		t.Fatalf("overlaps = %+v", c.Overlaps)
	}
}
