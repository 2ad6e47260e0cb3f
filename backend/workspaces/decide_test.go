package workspaces

import (
	"reflect"

	"errors"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

func TestNamesFor(t *testing.T) {
	for _, tc := range []struct {
		id      string
		want    Names
		invalid bool
	}{
		{id: "wsp_0abc", want: Names{Slug: "0abc", Branch: "hermesdesk/0abc", Ref: "refs/heads/hermesdesk/0abc",
			ArchiveRef: "refs/hermesdesk/archive/wsp_0abc", LockReason: "hermesdesk wsp_0abc", Path: "/r/.worktrees/0abc"}},
		{id: "0abc", invalid: true},
		{id: "wsp_", invalid: true},
		{id: "wsp_../x", invalid: true},
		{id: "wsp_AB", invalid: true},
		{id: "wsp_a b", invalid: true},
		{id: "wsp_" + strings.Repeat("a", 33), invalid: true},
	} {
		got, err := NamesFor("/r", tc.id, "")
		if tc.invalid {
			if !errors.Is(err, errdefs.ErrInvalid) {
				t.Errorf("%q: err %v, want invalid", tc.id, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.id, got, err, tc.want)
		}
	}
	id := NewID()
	if _, err := Slug(id); err != nil {
		t.Fatalf("NewID %q: %v", id, err)
	}
	// The data dir as the location: a folder per repository (its name
	// and a hash of its path, so two repositories called r stay apart).
	for _, tc := range []struct{ top, root, want string }{
		{"/r", "", "/r/.worktrees/0abc"},
		{"/r", "/data/worktrees", "/data/worktrees/r-6588117f7b51/0abc"},
		{"/r/", "/data/worktrees", "/data/worktrees/r-6588117f7b51/0abc"},
		{"/s/r", "/data/worktrees", "/data/worktrees/r-0341a8cad581/0abc"},
	} {
		got, err := NamesFor(tc.top, "wsp_0abc", tc.root)
		if err != nil || got.Path != tc.want || got.Branch != "hermesdesk/0abc" || got.ArchiveRef != "refs/hermesdesk/archive/wsp_0abc" {
			t.Errorf("NamesFor(%q, root %q) = %+v, %v; want path %s, the same branch and refs", tc.top, tc.root, got, err, tc.want)
		}
	}
	a, _ := NamesFor("/r", id, "")
	b, _ := NamesFor("/r", id, "")
	if a != b {
		t.Fatal("names are not deterministic")
	}
}

func TestCanCreate(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    RepoFacts
		want string // a word of the sentence; "" allowed
	}{
		{"a branch", RepoFacts{}, ""},
		{"no git", RepoFacts{GitMissing: true, NotRepo: true}, "git is not installed"},
		{"not a repository", RepoFacts{NotRepo: true}, "not a git repository"},
		{"bare", RepoFacts{Bare: true, Detached: true}, "bare"},
		{"unborn", RepoFacts{Unborn: true}, "no commit yet"},
		{"detached", RepoFacts{Detached: true}, "detached HEAD"},
		{"base missing", RepoFacts{BaseMissing: true, Base: "nope"}, `"nope"`},
	} {
		err := CanCreate(tc.f)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.name, err)
			}
			continue
		}
		if !IsRefused(err) || !errors.Is(err, errdefs.ErrConflict) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a refusal saying %q", tc.name, err, tc.want)
		}
	}
}

func TestCanArchive(t *testing.T) {
	const id = "wsp_abc"
	ours := TreeFacts{Listed: true, Locked: true, LockReason: "hermesdesk wsp_abc"}
	with := func(f func(*TreeFacts)) TreeFacts { c := ours; f(&c); return c }
	for _, tc := range []struct {
		name string
		f    TreeFacts
		want string
	}{
		{"ours, idle", ours, ""},
		{"main checkout", with(func(f *TreeFacts) { f.Main = true }), "main checkout"},
		{"run live", with(func(f *TreeFacts) { f.RunLive = true }), "run is still working"},
		{"setup running", with(func(f *TreeFacts) { f.SetupRunning = true }), "setup script is still running"},
		{"not a worktree", with(func(f *TreeFacts) { f.Listed = false }), "does not list"},
		{"someone else's lock", with(func(f *TreeFacts) { f.LockReason = "mine, hands off" }), "someone else"},
		{"another workspace's lock", with(func(f *TreeFacts) { f.LockReason = "hermesdesk wsp_other" }), "someone else"},
		{"unlocked", with(func(f *TreeFacts) { f.Locked, f.LockReason = false, "" }), "not locked by Hermes Desk"},
	} {
		err := CanArchive(id, tc.f)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.name, err)
			}
			continue
		}
		if !IsRefused(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a refusal saying %q", tc.name, err, tc.want)
		}
	}
}

func TestChooseSetup(t *testing.T) {
	own := []byte(`{"setup": "make own"}`)
	cond := []byte(`{"scripts": {"setup": "make conductor", "run": "x"}}`)
	codex := []byte("version = 1\nname = \"x\"\n[setup]\nscript = \"make codex\"\n")
	for _, tc := range []struct {
		name    string
		files   map[string][]byte
		want    Setup
		wantErr string
	}{
		{"none", nil, Setup{}, ""},
		{"own wins", map[string][]byte{SetupFileOwn: own, SetupFileConductor: cond, SetupFileCodex: codex}, Setup{SetupFileOwn, "make own"}, ""},
		{"conductor over codex", map[string][]byte{SetupFileConductor: cond, SetupFileCodex: codex}, Setup{SetupFileConductor, "make conductor"}, ""},
		{"codex alone", map[string][]byte{SetupFileCodex: codex}, Setup{SetupFileCodex, "make codex"}, ""},
		{"own without setup falls through", map[string][]byte{SetupFileOwn: []byte(`{}`), SetupFileCodex: codex}, Setup{SetupFileCodex, "make codex"}, ""},
		{"own malformed is said", map[string][]byte{SetupFileOwn: []byte(`{`), SetupFileCodex: codex}, Setup{}, ".hermesdesk/workspace.json"},
		{"codex multi-line basic", map[string][]byte{SetupFileCodex: []byte("[setup]\nscript = \"\"\"\nnpm ci\nnpm run \\\"build\\\"\n\"\"\"\n")}, Setup{SetupFileCodex, "npm ci\nnpm run \"build\"\n"}, ""},
		{"codex multi-line literal", map[string][]byte{SetupFileCodex: []byte("[setup]\nscript = '''\ncp .env.example .env\\n\n'''\n")}, Setup{SetupFileCodex, "cp .env.example .env\\n\n"}, ""},
		{"codex literal", map[string][]byte{SetupFileCodex: []byte("[setup]\nscript = 'a \"b\"'\n")}, Setup{SetupFileCodex, `a "b"`}, ""},
		{"codex script in another table", map[string][]byte{SetupFileCodex: []byte("[actions]\nscript = \"no\"\n")}, Setup{}, ""},
		{"codex unclosed", map[string][]byte{SetupFileCodex: []byte("[setup]\nscript = \"\"\"\nnpm ci\n")}, Setup{}, "not closed"},
		{"codex not a string", map[string][]byte{SetupFileCodex: []byte("[setup]\nscript = 3\n")}, Setup{}, "not a string"},
	} {
		got, err := ChooseSetup(tc.files)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err %v, want one saying %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
}

func FuzzChooseSetupCodex(f *testing.F) {
	f.Add("[setup]\nscript = \"\"\"\na\\\nb\n\"\"\"\n")
	f.Add("[setup]\nscript = 'x'")
	f.Add("[setup]\nscript = \"\\")
	f.Fuzz(func(t *testing.T, doc string) {
		s, err := ChooseSetup(map[string][]byte{SetupFileCodex: []byte(doc)})
		if err == nil && s.Script != "" && s.Source != SetupFileCodex {
			t.Fatalf("script from %q", s.Source)
		}
	})
}

func TestExcludeAddition(t *testing.T) {
	add := "# Hermes Desk's worktrees (docs: Workspaces)\n/.worktrees/\n"
	for _, tc := range []struct{ in, want string }{
		{"", add},
		{"*.log\n", add},
		{"*.log", "\n" + add},
		{"# mine\n/.worktrees/\n", ""},
		{".worktrees\n", ""},
		{"  .worktrees/  \n", ""},
		{"/.worktrees-old/\n", add},
	} {
		if got := excludeAddition(tc.in); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRecover(t *testing.T) {
	for _, tc := range []struct {
		h    HalfMade
		want Recovery
	}{
		{HalfMade{State: StateClaimed}, RollBack},
		{HalfMade{State: StateClaimed, Listed: true}, Finish},
		{HalfMade{State: StateClaimed, Listed: true, Initializing: true}, RollBack},
		{HalfMade{State: StateCreated, Listed: true}, Finish},
		{HalfMade{State: StateCreated}, RollBack},
	} {
		if got := Recover(tc.h); got != tc.want {
			t.Errorf("%+v: got %v, want %v", tc.h, got, tc.want)
		}
	}
}

func TestPickPorts(t *testing.T) {
	all := func(int) bool { return true }
	for _, tc := range []struct {
		name string
		used []int
		busy []int
		want int
	}{
		{"first", nil, nil, 100},
		{"skips used", []int{100, 110}, nil, 120},
		{"skips a block with one busy port", nil, []int{109}, 110},
		{"none left", []int{100, 110}, []int{125}, 0},
	} {
		busy := map[int]bool{}
		for _, p := range tc.busy {
			busy[p] = true
		}
		free := func(p int) bool { return all(p) && !busy[p] }
		if got := pickPorts(tc.used, 100, 130, free); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestEnv(t *testing.T) {
	w := run.Workspace{ID: "wsp_ab1", Kind: KindWorktree, Path: "/r/.worktrees/ab1", Base: "main", Port: 41010}
	want := []string{"HERMESDESK_WORKSPACE_PATH=/r/.worktrees/ab1", "HERMESDESK_WORKSPACE_NAME=ab1", "HERMESDESK_BASE_BRANCH=main", "HERMESDESK_PORT=41010"}
	if got := Env(w); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q", got)
	}
	if got := Env(run.Workspace{Kind: KindCheckout}); got != nil {
		t.Fatalf("checkout got %q", got)
	}
}

func TestOutsideChange(t *testing.T) {
	w := run.Workspace{ID: "wsp_a", Path: "/r/.worktrees/a", Branch: "hermesdesk/a", State: StateReady}
	ours := &gitcmd.Worktree{Path: w.Path, Locked: true, LockReason: "hermesdesk wsp_a"}
	for _, tc := range []struct {
		name      string
		wt        *gitcmd.Worktree
		gone      bool
		note      string
		wantState string
	}{
		{"as made", ours, false, "", StateReady},
		{"folder gone", nil, true, "is gone", StateGone},
		{"folder gone, git still lists it", ours, true, "is gone", StateGone},
		{"not listed", nil, false, "no longer lists", StateGone},
		{"unlocked", &gitcmd.Worktree{Path: w.Path}, false, "unlocked outside", StateReady},
		{"locked by someone", &gitcmd.Worktree{Path: w.Path, Locked: true, LockReason: "mine"}, false, `locked again outside Hermes Desk ("mine")`, StateReady},
	} {
		note, state := outsideChange(w, tc.wt, tc.gone)
		if state != tc.wantState || (tc.note == "") != (note == "") || !strings.Contains(note, tc.note) {
			t.Errorf("%s: %q %s", tc.name, note, state)
		}
	}
}
