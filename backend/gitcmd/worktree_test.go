package gitcmd_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
)

func TestParseWorktrees(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []gitcmd.Worktree
	}{
		{"empty", "", nil},
		{"main and a locked one",
			"worktree /r\x00HEAD abc\x00branch refs/heads/main\x00\x00" +
				"worktree /r/.worktrees/x y\x00HEAD def\x00branch refs/heads/hermesdesk/x\x00locked hermesdesk wsp_x\x00\x00",
			[]gitcmd.Worktree{
				{Path: "/r", Head: "abc", Branch: "refs/heads/main"},
				{Path: "/r/.worktrees/x y", Head: "def", Branch: "refs/heads/hermesdesk/x", Locked: true, LockReason: "hermesdesk wsp_x"},
			}},
		{"bare, detached, lock without reason, prunable, unknown attribute",
			"worktree /b\x00bare\x00\x00worktree /d\x00HEAD 1\x00detached\x00locked\x00prunable gitdir file points to non-existent location\x00newthing 1\x00\x00",
			[]gitcmd.Worktree{
				{Path: "/b", Bare: true},
				{Path: "/d", Head: "1", Detached: true, Locked: true, Prunable: true},
			}},
		{"attributes before any worktree are skipped", "HEAD x\x00\x00", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gitcmd.ParseWorktrees(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func FuzzParseWorktrees(f *testing.F) {
	f.Add("worktree /r\x00HEAD abc\x00branch refs/heads/main\x00\x00")
	f.Add("worktree /d\x00locked why\x00\x00\x00worktree")
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range gitcmd.ParseWorktrees(s) {
			if strings.ContainsRune(w.Path, 0) || strings.ContainsRune(w.LockReason, 0) {
				t.Fatalf("a field holds NUL: %+v", w)
			}
		}
	})
}
