package merge

import (
	"errors"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
)

func TestDecide(t *testing.T) {
	clean := Facts{Strategy: Squash, Base: "main", Clean: true, Changed: []string{"a.go", "b.go"}}
	with := func(f func(*Facts)) Facts { c := clean; f(&c); return c }
	cases := []struct {
		name    string
		facts   Facts
		refusal []string // words the refusal holds; nil = proceed
		note    string
	}{
		{"clean", clean, nil, ""},
		{"conflicting", with(func(f *Facts) { f.Clean = false; f.Conflicts = []string{"api/server.go", "go.mod"} }), []string{"conflicts with main", "api/server.go, go.mod", "Resolve with the agent"}, ""},
		{"dirty checkout touched", with(func(f *Facts) { f.CheckoutDirty = []string{"notes.txt", "b.go"} }), []string{"uncommitted changes", "in b.go;"}, ""},
		{"dirty checkout untouched", with(func(f *Facts) { f.CheckoutDirty = []string{"notes.txt"} }), nil, ""},
		{"missing base", with(func(f *Facts) { f.BaseMissing = true; f.Clean = false }), []string{`"main" no longer exists`}, ""},
		{"base moved ahead, clean", with(func(f *Facts) { f.BaseAhead = 3 }), nil, "main moved 3 commits ahead"},
		{"base moved ahead, conflicting", with(func(f *Facts) { f.BaseAhead = 1; f.Clean = false; f.Conflicts = []string{"x"} }), []string{"conflicts with main in x"}, "main moved 1 commit ahead"},
		{"live run", with(func(f *Facts) { f.RunLive = true }), []string{"a run is still working"}, ""},
		{"setup running", with(func(f *Facts) { f.SetupRunning = true }), []string{"setup script"}, ""},
		{"nothing to merge", with(func(f *Facts) { f.Nothing = true }), []string{"nothing that main does not already have"}, ""},
		{"rebase over a merge commit", with(func(f *Facts) { f.Strategy = Rebase; f.RebaseMerges = true }), []string{"merge commit"}, ""},
		{"squash over a merge commit", with(func(f *Facts) { f.RebaseMerges = true }), nil, ""},
		{"many conflicts named", with(func(f *Facts) { f.Clean = false; f.Conflicts = []string{"1", "2", "3", "4", "5", "6", "7"} }), []string{"1, 2, 3, 4, 5 and 2 more"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Decide(c.facts)
			if c.refusal == nil && d.Refusal != "" {
				t.Fatalf("refused: %s", d.Refusal)
			}
			if c.refusal != nil && d.Refusal == "" {
				t.Fatal("proceeded, want a refusal")
			}
			for _, w := range c.refusal {
				if w == "Resolve with the agent" {
					w = "resolve with the agent"
				}
				if !strings.Contains(d.Refusal, w) {
					t.Errorf("refusal %q lacks %q", d.Refusal, w)
				}
			}
			if got := strings.Join(d.Notes, "|"); (c.note == "") != (got == "") || !strings.Contains(got, c.note) {
				t.Errorf("notes %q, want %q", got, c.note)
			}
		})
	}
}

func TestRefusalIsAConflict(t *testing.T) {
	err := refused("why")
	if !errors.Is(err, ErrRefused) || !errors.Is(err, errdefs.ErrConflict) || Reason(err) != "why" {
		t.Fatalf("%v", err)
	}
}

func TestParseStrategy(t *testing.T) {
	for in, want := range map[string]Strategy{"": Squash, "squash": Squash, "merge": Merge, "rebase": Rebase} {
		if got, err := ParseStrategy(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := ParseStrategy("octopus"); !errors.Is(err, errdefs.ErrInvalid) {
		t.Errorf("octopus: %v", err)
	}
}
