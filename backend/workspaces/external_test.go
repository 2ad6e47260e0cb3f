package workspaces

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestExternalClassifiesWorktreesTheAppDidNotMake(t *testing.T) {
	main := gitcmd.Worktree{Path: "/r", Branch: "refs/heads/main"}
	ours := run.Workspace{ID: "wsp_aaaa", Path: "/r/.worktrees/aaaa"}
	cases := []struct {
		name  string
		wts   []gitcmd.Worktree
		known []run.Workspace
		want  []string // paths listed as external, in order
	}{
		{"only the main checkout", []gitcmd.Worktree{main}, nil, nil},
		{"the app's own worktree", []gitcmd.Worktree{main, {Path: "/r/.worktrees/aaaa", Locked: true, LockReason: "hermesdesk wsp_aaaa"}}, []run.Workspace{ours}, nil},
		{"the app's own, path spelled with a trailing slash", []gitcmd.Worktree{main, {Path: "/r/.worktrees/aaaa/"}}, []run.Workspace{ours}, nil},
		{"an agent's worktree", []gitcmd.Worktree{main, {Path: "/r/.claude/worktrees/x", Branch: "refs/heads/x"}}, []run.Workspace{ours}, []string{"/r/.claude/worktrees/x"}},
		{"our lock reason but not journaled", []gitcmd.Worktree{main, {Path: "/r/.worktrees/zzzz", Locked: true, LockReason: "hermesdesk wsp_zzzz"}}, []run.Workspace{ours}, []string{"/r/.worktrees/zzzz"}},
		{"a prunable one (its folder gone)", []gitcmd.Worktree{main, {Path: "/gone", Prunable: true}}, nil, nil},
		{"a bare entry", []gitcmd.Worktree{main, {Path: "/b", Bare: true}}, nil, nil},
		{"detached and a branch, order kept", []gitcmd.Worktree{main, {Path: "/d", Detached: true, Head: "0123456789abcdef"}, {Path: "/e", Branch: "refs/heads/e"}}, nil, []string{"/d", "/e"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := External("prj_1", c.wts, c.known)
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want paths %v", got, c.want)
			}
			for i, w := range got {
				if w.Path != c.want[i] || w.Origin != OriginExternal || w.ID != "" || w.ProjectID != "prj_1" || w.Kind != KindWorktree || w.Note == "" {
					t.Fatalf("entry %d: %+v, want path %s, external, no id", i, w, c.want[i])
				}
			}
		})
	}
	got := External("p", []gitcmd.Worktree{main, {Path: "/e", Branch: "refs/heads/feat/x"}}, nil)
	if got[0].Branch != "feat/x" {
		t.Fatalf("branch %q, want the short name feat/x", got[0].Branch)
	}
}

// A worktree made with plain git next to one the app made: the project's
// list holds both, the outside one marked external, and it cannot be
// archived (it has no id the app knows).
func TestListShowsAWorktreeMadeOutside(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	m := newManager(t, st)
	m.NoSetup = true
	ours, err := m.Create(ctx, p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "agent-wt")
	git(t, repo, "worktree", "add", "-q", "-b", "agent/fix", outside)

	list, err := m.List(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var ext []run.Workspace
	for _, w := range list {
		if w.Origin == OriginExternal {
			ext = append(ext, w)
		} else if w.ID != ours.ID {
			t.Fatalf("unexpected journaled entry %+v", w)
		}
	}
	if len(list) != 2 || len(ext) != 1 || ext[0].Path != outside || ext[0].Branch != "agent/fix" {
		t.Fatalf("list %+v, want ours and %s as external on agent/fix", list, outside)
	}
	if _, err := m.Archive(ctx, ext[0].ID); err == nil {
		t.Fatal("an external worktree was archived")
	}
	// Every project's list (the start-up look, pruning) stays journaled only.
	all, err := m.List(ctx, "")
	if err != nil || len(all) != 1 {
		t.Fatalf("every project's list: %+v %v", all, err)
	}
}
