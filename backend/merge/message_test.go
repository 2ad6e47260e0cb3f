package merge

import (
	"strings"
	"testing"
)

func TestDraftMessage(t *testing.T) {
	cases := []struct {
		name  string
		title string
		runs  []Run
		want  string
	}{
		{"title and runs", "Add login", []Run{{"make a login form\nwith two fields"}, {"  add tests  "}}, "Add login\n\n- make a login form\n- add tests\n"},
		{"repeated run lines once", "T", []Run{{"again"}, {"again"}}, "T\n\n- again\n"},
		{"no title: the first run", "", []Run{{"fix the bug"}, {"and its test"}}, "fix the bug\n\n- and its test\n"},
		{"nothing at all", "", nil, "Work from a Hermes Desk workspace\n"},
		{"title alone", "Only a title\nsecond line", []Run{{""}}, "Only a title\n"},
		{"long subject cut", strings.Repeat("x", 80), nil, strings.Repeat("x", 71) + "…\n"},
	}
	for _, c := range cases {
		if got := DraftMessage(c.title, c.runs); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestResolveMessage(t *testing.T) {
	cases := []struct {
		name      string
		conflicts []Conflict
		want      []string
	}{
		{"one file with git's words", []Conflict{{Path: "api/server.go", Messages: []string{"CONFLICT (content): Merge conflict in api/server.go"}}},
			[]string{"into main conflicts in 1 file", "- api/server.go\n  git: CONFLICT (content): Merge conflict in api/server.go\n", "git merge main", "Do not change the main branch"}},
		{"two files", []Conflict{{Path: "a"}, {Path: "b", Messages: []string{"CONFLICT (modify/delete): b deleted in x"}}},
			[]string{"in 2 files", "- a\n- b\n  git: CONFLICT (modify/delete)"}},
	}
	for _, c := range cases {
		got := ResolveMessage("main", c.conflicts)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
	}
}
