package radar

import (
	"fmt"
	"sort"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The radar's pure decisions (docs/ARCHITECTURE.md §Conflict radar),
// table-tested in decide_test.go.

// Pair is two workspace ids, in the order the participants were listed.
type Pair struct{ A, B string }

// Pairs lists the pairs to check after a change: every pair of ids that
// holds at least one changed workspace. Pairs of two unchanged
// workspaces keep their last answer (their states did not move).
func Pairs(ids []string, changed map[string]bool) []Pair {
	var out []Pair
	for i := 0; i < len(ids); i++ {
		for j := i + 1; j < len(ids); j++ {
			if changed[ids[i]] || changed[ids[j]] {
				out = append(out, Pair{ids[i], ids[j]})
			}
		}
	}
	return out
}

// MergeOrder is the suggested order to merge the workspaces home: the one
// with the fewest conflicting files (over all its overlaps) first, so each
// merge disturbs the fewest others; ties oldest first, then by id.
func MergeOrder(ws []run.Workspace, overlaps []run.Overlap) []string {
	conflicts := map[string]int{}
	for _, o := range overlaps {
		conflicts[o.A.WorkspaceID] += len(o.Files)
		conflicts[o.B.WorkspaceID] += len(o.Files)
	}
	sorted := append([]run.Workspace(nil), ws...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if ca, cb := conflicts[a.ID], conflicts[b.ID]; ca != cb {
			return ca < cb
		}
		if !a.CreatedAt.Equal(b.CreatedAt) {
			return a.CreatedAt.Before(b.CreatedAt)
		}
		return a.ID < b.ID
	})
	out := make([]string, len(sorted))
	for i, w := range sorted {
		out[i] = w.ID
	}
	return out
}

// maxLines bounds the tray's radar lines; the rest are counted.
const maxLines = 3

// Lines says the overlaps for people, one line per file, the file most
// workspaces meet on first: "2 workspaces change api/server.go". Past
// maxLines, one more line counts the rest.
func Lines(overlaps []run.Overlap) []string {
	who := map[string]map[string]bool{}
	for _, o := range overlaps {
		for _, f := range o.Files {
			if who[f.Path] == nil {
				who[f.Path] = map[string]bool{}
			}
			who[f.Path][o.A.WorkspaceID] = true
			who[f.Path][o.B.WorkspaceID] = true
		}
	}
	paths := make([]string, 0, len(who))
	for p := range who {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		if a, b := len(who[paths[i]]), len(who[paths[j]]); a != b {
			return a > b
		}
		return paths[i] < paths[j]
	})
	var out []string
	for i, p := range paths {
		if i == maxLines {
			rest := len(paths) - maxLines
			out = append(out, fmt.Sprintf("and %d more %s changed by more than one workspace", rest, plural(rest, "file", "files")))
			break
		}
		out = append(out, fmt.Sprintf("%d workspaces change %s", len(who[p]), p))
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
