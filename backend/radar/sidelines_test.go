package radar

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// mergeFile is git's merge of a and b from base, conflict markers and all
// (git merge-file writes them as merge-tree does).
func mergeFile(t *testing.T, base, a, b string) string {
	t.Helper()
	dir := t.TempDir()
	for name, s := range map[string]string{"a": a, "base": base, "b": b} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("git", "merge-file", "-p", "-L", "a", "-L", "base", "-L", "b",
		filepath.Join(dir, "a"), filepath.Join(dir, "base"), filepath.Join(dir, "b")).Output()
	if _, conflicted := err.(*exec.ExitError); err != nil && !conflicted {
		t.Fatal(err)
	}
	return string(out)
}

func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }

func TestSideSpans(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	base := lines("one", "two", "three", "four", "five", "six", "seven", "eight")
	cases := []struct {
		name  string
		a, b  string
		wantA []run.LineSpan
		wantB []run.LineSpan
	}{
		{"both change one line",
			lines("one", "two", "THREE a", "four", "five", "six", "seven", "eight"),
			lines("one", "two", "THREE b", "four", "five", "six", "seven", "eight"),
			[]run.LineSpan{{Start: 3, Count: 1}}, []run.LineSpan{{Start: 3, Count: 1}}},
		{"the other side's clean lines above shift only the merged file",
			lines("one", "two", "THREE a", "four", "five", "six", "seven", "eight"),
			lines("zero", "zero and a half", "one", "two", "THREE b", "four", "five", "six", "seven", "eight"),
			[]run.LineSpan{{Start: 3, Count: 1}}, []run.LineSpan{{Start: 5, Count: 1}}},
		{"a side's own lines above shift its side",
			lines("a1", "a2", "a3", "one", "two", "THREE a", "four", "five", "six", "seven", "eight"),
			lines("one", "two", "THREE b", "and more b", "four", "five", "six", "seven", "eight"),
			[]run.LineSpan{{Start: 6, Count: 1}}, []run.LineSpan{{Start: 3, Count: 2}}},
		{"a deletion is a place before the side's next line",
			lines("one", "two", "four", "five", "six", "seven", "eight"),
			lines("one", "two", "THREE b", "four", "five", "six", "seven", "eight"),
			[]run.LineSpan{{Start: 3, Count: 0}}, []run.LineSpan{{Start: 3, Count: 1}}},
		{"a deletion at the top",
			lines("two", "three", "four", "five", "six", "seven", "eight"),
			lines("ONE b", "two", "three", "four", "five", "six", "seven", "eight"),
			[]run.LineSpan{{Start: 1, Count: 0}}, []run.LineSpan{{Start: 1, Count: 1}}},
		{"near changes are one region, the common lines in it each side's",
			lines("one", "two", "X", "four", "five", "six", "X", "eight"),
			lines("one", "two", "Y", "four", "five", "six", "Y", "Y", "eight"),
			[]run.LineSpan{{Start: 3, Count: 5}}, []run.LineSpan{{Start: 3, Count: 6}}},
		{"two regions, the other side's clean line between",
			lines("one", "A", "three", "four", "five", "six", "seven", "A"),
			lines("one", "B", "three", "four", "4b", "five", "six", "seven", "B"),
			[]run.LineSpan{{Start: 2, Count: 1}, {Start: 8, Count: 1}}, []run.LineSpan{{Start: 2, Count: 1}, {Start: 9, Count: 1}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			merged := mergeFile(t, base, tc.a, tc.b)
			hunks := gitcmd.ConflictHunks(merged)
			if len(hunks) != len(tc.wantA) {
				t.Fatalf("%d regions, want %d:\n%s", len(hunks), len(tc.wantA), merged)
			}
			for _, side := range []struct {
				ours bool
				file string
				want []run.LineSpan
			}{{true, tc.a, tc.wantA}, {false, tc.b, tc.wantB}} {
				var got []run.LineSpan
				for _, sp := range sideSpans(merged, side.file, hunks, side.ours) {
					got = append(got, *sp)
				}
				if !reflect.DeepEqual(got, side.want) {
					t.Errorf("ours %v: spans %+v, want %+v\n%s", side.ours, got, side.want, merged)
				}
			}
		})
	}
	if got := sideSpans("no markers\n", "x\n", []gitcmd.ConflictHunk{{Start: 5, End: 9}}, true); got != nil {
		t.Errorf("markers past the file's end gave %+v", got)
	}
}

// The radar's hunks say where each worktree's lines are in its own file,
// not the merged file's marker lines (docs/ARCHITECTURE.md §Conflict radar).
func TestRadarHunksCarryEachSidesLines(t *testing.T) {
	r := newRepo(t, 0)
	a := r.worktree("a", 1)
	b := r.worktree("b", 2)
	write(t, a, "api/server.go", server(map[int]string{5: "five by a"}))
	write(t, b, "api/server.go", "b's first\nb's second\n"+server(map[int]string{5: "five by b"}))

	rad := New(r.src, RealGit(), nil)
	answers := running(t, rad)
	rad.Project("p")
	c := next(t, answers)
	if len(c.Overlaps) != 1 || len(c.Overlaps[0].Files) != 1 || len(c.Overlaps[0].Files[0].Hunks) != 1 {
		t.Fatalf("overlaps = %+v, want one hunk", c.Overlaps)
	}
	h := c.Overlaps[0].Files[0].Hunks[0]
	if h.ALines == nil || *h.ALines != (run.LineSpan{Start: 5, Count: 1}) || h.BLines == nil || *h.BLines != (run.LineSpan{Start: 7, Count: 1}) {
		t.Fatalf("hunk %+v: a's lines %+v, b's %+v; want a's line 5 and b's line 7", h, h.ALines, h.BLines)
	}
}

// Any merged text and side: no crash, a span per region, each inside the
// side's file.
func FuzzSideSpans(f *testing.F) {
	f.Add("one\n<<<<<<< a\nx\n=======\ny\n>>>>>>> b\nthree\n", "one\nx\nthree\n", true)
	f.Add("<<<<<<< a\n=======\ny\n>>>>>>> b\n", "", false)
	f.Add("<<<<<<<\n|||||||\nbase\n=======\n>>>>>>>\n<<<<<<<\n", "z\n", true)
	f.Fuzz(func(t *testing.T, merged, side string, ours bool) {
		hunks := gitcmd.ConflictHunks(merged)
		got := sideSpans(merged, side, hunks, ours)
		if got == nil {
			return
		}
		if len(got) != len(hunks) {
			t.Fatalf("%d spans for %d regions", len(got), len(hunks))
		}
		n := len(strings.Split(side, "\n"))
		for _, sp := range got {
			if sp == nil || sp.Start < 1 || sp.Count < 0 || sp.Start+sp.Count-1 > n || sp.Start > n+1 {
				t.Fatalf("span %+v outside a side of %d lines", sp, n)
			}
		}
	})
}
