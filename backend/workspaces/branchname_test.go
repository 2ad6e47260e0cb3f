package workspaces

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestBranchFor(t *testing.T) {
	const id = "wsp_x8bqhp1t32r6q4pm"
	cases := []struct {
		name, title string
		taken       []string
		want        string
	}{
		{"a plain title", "Fix the login bug", nil, "hermesdesk/fix-the-login-bug-x8bq"},
		{"punctuation and case", "  Add OAuth2 (GitHub) login!! ", nil, "hermesdesk/add-oauth2-github-login-x8bq"},
		{"accents dropped", "Résumé über café", nil, "hermesdesk/resume-uber-cafe-x8bq"},
		{"cut at a word's end", "Refactor the configuration loader and its tests", nil, "hermesdesk/refactor-the-x8bq"},
		{"one long word cut hard", "Supercalifragilisticexpialidocious", nil, "hermesdesk/supercalifragilisticexpi-x8bq"},
		{"a word ending exactly at the bound", "abcdefghij klmnopqrstuvw xyz", nil, "hermesdesk/abcdefghij-klmnopqrstuvw-x8bq"},
		{"empty title keeps the id", "", nil, "hermesdesk/x8bqhp1t32r6q4pm"},
		{"only symbols keep the id", "!!! ... ???", nil, "hermesdesk/x8bqhp1t32r6q4pm"},
		{"a script without Latin letters keeps the id", "修复登录错误", nil, "hermesdesk/x8bqhp1t32r6q4pm"},
		{"mixed scripts keep the Latin words", "修复 login 错误 2", nil, "hermesdesk/login-2-x8bq"},
		{"git-unsafe characters", "a..b~c^d:e?f*g[h]\\i.lock @{j}", nil, "hermesdesk/a-b-c-d-e-f-g-h-i-lock-j-x8bq"},
		{"emoji and newlines", "🚀 ship\nit\ttoday", nil, "hermesdesk/ship-it-today-x8bq"},
		{"a taken name takes the whole id", "Fix the login bug", []string{"hermesdesk/fix-the-login-bug-x8bq"}, "hermesdesk/fix-the-login-bug-x8bqhp1t32r6q4pm"},
		{"another name taken changes nothing", "Fix the login bug", []string{"hermesdesk/fix-the-login-bug"}, "hermesdesk/fix-the-login-bug-x8bq"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			taken := func(b string) bool {
				for _, x := range tc.taken {
					if x == b {
						return true
					}
				}
				return false
			}
			got, err := BranchFor(tc.title, id, taken)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("BranchFor(%q) = %q, want %q", tc.title, got, tc.want)
			}
			if slug := strings.TrimPrefix(got, BranchPrefix); len(slug) > maxTitleSlug+1+16 {
				t.Errorf("%q is longer than the bound", got)
			}
		})
	}
	if _, err := BranchFor("x", "nope", nil); err == nil {
		t.Error("a bad id was taken")
	}
}

// Every name BranchFor makes is a branch name git accepts.
func FuzzBranchFor(f *testing.F) {
	for _, s := range []string{"Fix the login bug", "", "修复", "a..b", "-x-", "ÅÆØ", "x.lock"} {
		f.Add(s)
	}
	gitPath, err := exec.LookPath("git")
	if err != nil {
		f.Skip("no git")
	}
	f.Fuzz(func(t *testing.T, title string) {
		name, err := BranchFor(title, "wsp_x8bqhp1t32r6q4pm", nil)
		if err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(gitPath, "check-ref-format", "--branch", name).CombinedOutput(); err != nil {
			t.Errorf("%q from %q is not a branch name: %s", name, title, out)
		}
	})
}

// A worktree made for a titled session is on a branch named after it, in
// the row and in git, and archives and restores under that name.
func TestCreateNamesTheBranchAfterTheTitle(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t)
	st, p := openStore(t, filepath.Join(t.TempDir(), "j.db"), repo)
	m := newManager(t, st)
	w, err := m.CreateWith(ctx, p.ID, "", "Fix the login bug", nil)
	if err != nil {
		t.Fatal(err)
	}
	slug, _ := Slug(w.ID)
	want := "hermesdesk/fix-the-login-bug-" + slug[:4]
	if w.Branch != want {
		t.Fatalf("branch %q, want %q", w.Branch, want)
	}
	if got := git(t, w.Path, "branch", "--show-current"); got != want {
		t.Fatalf("the worktree is on %q, want %q", got, want)
	}
	if w, err = m.Archive(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if w, err = m.Restore(ctx, w.ID); err != nil || w.State != StateReady {
		t.Fatalf("restore: %+v, %v", w, err)
	}
	if got := git(t, w.Path, "branch", "--show-current"); got != want {
		t.Fatalf("restored on %q, want %q", got, want)
	}
}
