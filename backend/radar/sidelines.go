package radar

import (
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// sideSpans places each conflicted region of a merged file in one side's
// own file (ours: the merge's first side). The merged file's numbers are
// not the side's: clean changes of the other side shift them, and the
// markers take lines. So the merged file is resolved to the side (each
// region replaced by the side's lines), which then differs from the
// side's file only by the other side's clean changes, and a line diff of
// the two maps every region there. A region where the side has no lines
// (it deleted them) becomes a place: Count 0, before the side's line
// that follows (docs/ARCHITECTURE.md §Conflict radar).
func sideSpans(merged, side string, hunks []gitcmd.ConflictHunk, ours bool) []*run.LineSpan {
	lines := strings.Split(merged, "\n")
	var resolved []string
	at := make([][2]int, len(hunks)) // each region's [from, to) in resolved
	next := 0
	for i, h := range hunks {
		if h.Start < 1 || h.End > len(lines) || h.Start-1 < next {
			return nil // not this file's markers
		}
		resolved = append(resolved, lines[next:h.Start-1]...)
		mine := h.Theirs
		if ours {
			mine = h.Ours
		}
		at[i][0] = len(resolved)
		resolved = append(resolved, mine...)
		at[i][1] = len(resolved)
		next = h.End
	}
	resolved = append(resolved, lines[next:]...)

	// where[i] is resolved line i's index in the side's file, or -1.
	where := make([]int, len(resolved))
	for i := range where {
		where[i] = -1
	}
	m := difflib.NewMatcherWithJunk(resolved, strings.Split(side, "\n"), false, nil)
	for _, b := range m.GetMatchingBlocks() {
		for k := 0; k < b.Size; k++ {
			where[b.A+k] = b.B + k
		}
	}

	out := make([]*run.LineSpan, len(hunks))
	for i, r := range at {
		first, last := -1, -1
		for k := r[0]; k < r[1]; k++ {
			if where[k] >= 0 {
				if first < 0 {
					first = where[k]
				}
				last = where[k]
			}
		}
		if first >= 0 {
			out[i] = &run.LineSpan{Start: first + 1, Count: last - first + 1}
			continue
		}
		// No lines of the side's here: the place after the side's line
		// just before the region.
		before := -1
		for k := r[0] - 1; k >= 0; k-- {
			if where[k] >= 0 {
				before = where[k]
				break
			}
		}
		out[i] = &run.LineSpan{Start: before + 2, Count: 0}
	}
	return out
}
