package gitcmd_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
)

func TestParseMergeTree(t *testing.T) {
	tree := strings.Repeat("a", 40)
	obj := strings.Repeat("b", 40)
	for _, tc := range []struct {
		name    string
		in      string
		want    gitcmd.MergeTree
		wantErr bool
	}{
		{"clean", tree + "\x00", gitcmd.MergeTree{Tree: tree, Clean: true}, false},
		{"clean with messages", tree + "\x00\x001\x00f.txt\x00Auto-merging\x00Auto-merging f.txt\n\x00",
			gitcmd.MergeTree{Tree: tree, Clean: true, Messages: []gitcmd.MergeMessage{{Paths: []string{"f.txt"}, Type: "Auto-merging", Text: "Auto-merging f.txt"}}}, false},
		{"content conflict",
			tree + "\x00100644 " + obj + " 1\tdir/a b.txt\x00100644 " + obj + " 2\tdir/a b.txt\x00\x00" +
				"1\x00dir/a b.txt\x00CONFLICT (contents)\x00CONFLICT (content): Merge conflict in dir/a b.txt\n\x00",
			gitcmd.MergeTree{Tree: tree, Conflicts: []gitcmd.ConflictEntry{
				{Mode: "100644", Object: obj, Stage: 1, Path: "dir/a b.txt"},
				{Mode: "100644", Object: obj, Stage: 2, Path: "dir/a b.txt"},
			}, Messages: []gitcmd.MergeMessage{{Paths: []string{"dir/a b.txt"}, Type: "CONFLICT (contents)", Text: "CONFLICT (content): Merge conflict in dir/a b.txt"}}}, false},
		{"rename message with two paths", tree + "\x00100644 " + obj + " 3\tnew\x00\x002\x00old\x00new\x00CONFLICT (rename/delete)\x00text\x00",
			gitcmd.MergeTree{Tree: tree, Conflicts: []gitcmd.ConflictEntry{{Mode: "100644", Object: obj, Stage: 3, Path: "new"}},
				Messages: []gitcmd.MergeMessage{{Paths: []string{"old", "new"}, Type: "CONFLICT (rename/delete)", Text: "text"}}}, false},
		{"empty", "", gitcmd.MergeTree{}, true},
		{"not a tree id", "fatal: oops\x00", gitcmd.MergeTree{}, true},
		{"bad stage", tree + "\x00100644 " + obj + " 7\tx\x00\x00", gitcmd.MergeTree{}, true},
		{"message count past the end", tree + "\x00\x005\x00a\x00", gitcmd.MergeTree{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := gitcmd.ParseMergeTree(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if !tc.wantErr && !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func FuzzParseMergeTree(f *testing.F) {
	tree := strings.Repeat("a", 40)
	f.Add(tree + "\x00")
	f.Add(tree + "\x00100644 " + tree + " 1\tx\x00\x001\x00x\x00T\x00m\x00")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := gitcmd.ParseMergeTree(s)
		if err != nil {
			return
		}
		if m.Clean != (len(m.Conflicts) == 0) {
			t.Fatalf("clean %v with %d conflicts", m.Clean, len(m.Conflicts))
		}
		for _, c := range m.Conflicts {
			if c.Stage < 1 || c.Stage > 3 || c.Path == "" {
				t.Fatalf("bad entry %+v", c)
			}
		}
	})
}

func TestConflictHunks(t *testing.T) {
	in := "a\n<<<<<<< one\nC1\n||||||| base\nc\n=======\nC2\nC2b\n>>>>>>> two\nd\n<<<<<<< x\nunterminated\n"
	got := gitcmd.ConflictHunks(in)
	want := []gitcmd.ConflictHunk{{Start: 2, End: 9, Ours: []string{"C1"}, Theirs: []string{"C2", "C2b"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// TestMergeTreeOfRealGit merges real branches: a same-line change
// conflicts, a change to another file does not, and nothing of the
// repository (index, HEAD, working tree) moves.
func TestMergeTreeOfRealGit(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("f.txt", "a\nb\nc\nd\n")
	write("other.txt", "x\n")
	git("add", ".")
	git("commit", "-qm", "base")
	git("checkout", "-qb", "one")
	write("f.txt", "a\nb\nC1\nd\n")
	git("commit", "-qam", "one")
	git("checkout", "-q", "main")
	git("checkout", "-qb", "two")
	write("f.txt", "a\nb\nC2\nd\n")
	git("commit", "-qam", "two")
	git("checkout", "-q", "main")
	git("checkout", "-qb", "three")
	write("other.txt", "y\n")
	git("commit", "-qam", "three")
	git("checkout", "-q", "main")
	headBefore, statusBefore := git("rev-parse", "HEAD"), git("status", "--porcelain")

	ctx := context.Background()
	m, err := gitcmd.MergeTreeOf(ctx, dir, "one", "two")
	if err != nil {
		t.Fatal(err)
	}
	if m.Clean || !reflect.DeepEqual(m.ConflictedPaths(), []string{"f.txt"}) {
		t.Fatalf("one×two: clean %v, conflicts %v", m.Clean, m.ConflictedPaths())
	}
	merged := git("cat-file", "-p", m.Tree+":f.txt")
	if h := gitcmd.ConflictHunks(merged); len(h) != 1 || h[0].Ours[0] != "C1" || h[0].Theirs[0] != "C2" {
		t.Fatalf("hunks %+v in\n%s", h, merged)
	}
	clean, err := gitcmd.MergeTreeOf(ctx, dir, "one", "three")
	if err != nil {
		t.Fatal(err)
	}
	if !clean.Clean || len(clean.Conflicts) != 0 {
		t.Fatalf("one×three should be clean: %+v", clean)
	}
	if _, err := gitcmd.MergeTreeOf(ctx, dir, "one", "no-such-branch"); err == nil {
		t.Fatal("a missing branch merged")
	}
	if git("rev-parse", "HEAD") != headBefore || git("status", "--porcelain") != statusBefore {
		t.Fatal("merge-tree moved the repository")
	}
}
