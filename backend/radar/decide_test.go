package radar

import (
	"reflect"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestPairs(t *testing.T) {
	cases := []struct {
		name    string
		ids     []string
		changed []string
		want    []Pair
	}{
		{"nothing changed", []string{"a", "b", "c"}, nil, nil},
		{"one workspace alone", []string{"a"}, []string{"a"}, nil},
		{"one of three changed: its two pairs, not the other", []string{"a", "b", "c"}, []string{"b"}, []Pair{{"a", "b"}, {"b", "c"}}},
		{"two changed: every pair holding one", []string{"a", "b", "c"}, []string{"a", "c"}, []Pair{{"a", "b"}, {"a", "c"}, {"b", "c"}}},
		{"a changed id no longer listed", []string{"a", "b"}, []string{"gone"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := map[string]bool{}
			for _, id := range c.changed {
				ch[id] = true
			}
			if got := Pairs(c.ids, ch); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Pairs = %v, want %v", got, c.want)
			}
		})
	}
}

func ws(id string, age int) run.Workspace {
	return run.Workspace{ID: id, Branch: "hermesdesk/" + id, Kind: "worktree", State: "ready",
		CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(age) * time.Minute)}
}

func overlap(a, b string, files ...string) run.Overlap {
	o := run.Overlap{A: run.OverlapSide{WorkspaceID: a, Branch: "hermesdesk/" + a}, B: run.OverlapSide{WorkspaceID: b, Branch: "hermesdesk/" + b}}
	for _, f := range files {
		o.Files = append(o.Files, run.OverlapFile{Path: f})
	}
	return o
}

func TestMergeOrder(t *testing.T) {
	cases := []struct {
		name     string
		ws       []run.Workspace
		overlaps []run.Overlap
		want     []string
	}{
		{"no overlaps: oldest first", []run.Workspace{ws("b", 2), ws("a", 1), ws("c", 3)}, nil, []string{"a", "b", "c"}},
		{"fewest conflicting files first", []run.Workspace{ws("a", 1), ws("b", 2), ws("c", 3)},
			[]run.Overlap{overlap("a", "b", "x.go", "y.go"), overlap("a", "c", "z.go")}, []string{"c", "b", "a"}},
		{"a tie goes to the older", []run.Workspace{ws("new", 5), ws("old", 1), ws("mid", 3)},
			[]run.Overlap{overlap("new", "old", "x.go")}, []string{"mid", "old", "new"}},
		{"same age: by id", []run.Workspace{ws("b", 1), ws("a", 1)}, nil, []string{"a", "b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := MergeOrder(c.ws, c.overlaps); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("MergeOrder = %v, want %v", got, c.want)
			}
		})
	}
}

func TestLines(t *testing.T) {
	cases := []struct {
		name     string
		overlaps []run.Overlap
		want     []string
	}{
		{"none", nil, nil},
		{"one pair, one file", []run.Overlap{overlap("a", "b", "api/server.go")}, []string{"2 workspaces change api/server.go"}},
		{"three workspaces on one file first", []run.Overlap{overlap("a", "b", "api/server.go", "go.mod"), overlap("b", "c", "api/server.go")},
			[]string{"3 workspaces change api/server.go", "2 workspaces change go.mod"}},
		{"past three files the rest are counted", []run.Overlap{overlap("a", "b", "a.go", "b.go", "c.go", "d.go", "e.go")},
			[]string{"2 workspaces change a.go", "2 workspaces change b.go", "2 workspaces change c.go", "and 2 more files changed by more than one workspace"}},
		{"one more file is one file", []run.Overlap{overlap("a", "b", "a.go", "b.go", "c.go", "d.go")},
			[]string{"2 workspaces change a.go", "2 workspaces change b.go", "2 workspaces change c.go", "and 1 more file changed by more than one workspace"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Lines(c.overlaps); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Lines = %q, want %q", got, c.want)
			}
		})
	}
}

func TestActive(t *testing.T) {
	ready := ws("r", 2)
	older := ws("o", 1)
	archived := ws("x", 0)
	archived.State = "archived"
	checkout := ws("c", 0)
	checkout.Kind = "checkout"
	external := run.Workspace{Kind: "worktree", State: "ready", Origin: "external", Path: "/elsewhere"}
	got := Active([]run.Workspace{ready, archived, checkout, external, older})
	if len(got) != 2 || got[0].ID != "o" || got[1].ID != "r" {
		t.Fatalf("Active = %+v, want o then r", got)
	}
}
