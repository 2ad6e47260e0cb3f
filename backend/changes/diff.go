// Package changes computes what a run changed in its workspace: unified
// diffs of one file's old and new text (from an agent's own edit payloads)
// and a snapshot of a git workspace around the run (docs/ARCHITECTURE.md
// §Events, "file.changed").
package changes

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// MaxDiff bounds the diff text stored in one event. Counts stay whole; the
// text is cut at a line boundary and marked Truncated, so a generated file
// of megabytes does not bloat the journal.
const MaxDiff = 256 << 10

// contextLines is the number of unchanged lines around each hunk.
const contextLines = 3

// Text returns the file.changed payload for a change of path from oldText
// to newText. created/deleted set the action; a side that looks binary
// names the file without a diff.
func Text(path, oldText, newText string, created, deleted bool) run.FileChanged {
	fc := run.FileChanged{Path: path, Action: "modified", Source: run.SourceAgent}
	switch {
	case created:
		fc.Action = "created"
	case deleted:
		fc.Action = "deleted"
	}
	if IsBinary([]byte(oldText)) || IsBinary([]byte(newText)) {
		fc.Binary = true
		return fc
	}
	from, to := "a/"+path, "b/"+path
	if created {
		from = "/dev/null"
	}
	if deleted {
		to = "/dev/null"
	}
	text, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: splitLines(oldText), B: splitLines(newText),
		FromFile: from, ToFile: to, Context: contextLines,
	})
	fc.Diff = text
	fc.Added, fc.Removed = Count(text)
	fc.Diff, fc.Truncated = Truncate(text, MaxDiff)
	return fc
}

// splitLines splits text into lines that keep their newline; a last line
// without one gets the marker git prints, so the diff says so.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := difflib.SplitLines(s)
	// SplitLines appends "\n" to the last piece; it is "" + "\n" when s
	// ends with a newline.
	if last := len(lines) - 1; lines[last] == "\n" {
		return lines[:last]
	} else {
		lines[last] = strings.TrimSuffix(lines[last], "\n") + "\n\\ No newline at end of file\n"
	}
	return lines
}

// Count returns the added and removed lines of a unified diff (headers
// not counted).
func Count(diff string) (added, removed int) {
	for _, line := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
		case strings.HasPrefix(line, "+"):
			added++
		case strings.HasPrefix(line, "-"):
			removed++
		}
	}
	return added, removed
}

// Truncate cuts diff to at most max bytes at a line boundary.
func Truncate(diff string, max int) (string, bool) {
	if len(diff) <= max {
		return diff, false
	}
	if cut := strings.LastIndexByte(diff[:max], '\n'); cut >= 0 {
		return diff[:cut+1], true
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(diff[cut]) {
		cut--
	}
	return diff[:cut], true
}

// IsBinary reports whether b looks like binary data (git's rule: a NUL in
// the first 8000 bytes), or is not valid UTF-8.
func IsBinary(b []byte) bool {
	head := b
	if len(head) > 8000 {
		head = head[:8000]
	}
	return bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(head)
}

// Edit is one replacement an agent reports: old text becomes new text
// somewhere in a file (Claude Code's Edit and MultiEdit inputs).
type Edit struct{ Old, New string }

// Snippets returns the file.changed payload for edits of path known only as
// replaced snippets, not whole files: one hunk per edit, line numbers
// counted within the snippet.
func Snippets(path string, edits []Edit) run.FileChanged {
	fc := run.FileChanged{Path: path, Action: "modified", Source: run.SourceAgent}
	var b strings.Builder
	for i, e := range edits {
		old, new := e.Old, e.New
		// Snippets rarely end with a newline; git's "no newline" marker
		// would be wrong for a line cut mid-file.
		if !strings.HasSuffix(old, "\n") && !strings.HasSuffix(new, "\n") {
			old, new = old+"\n", new+"\n"
		}
		if IsBinary([]byte(old)) || IsBinary([]byte(new)) {
			fc.Binary = true
			return fc
		}
		d, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
			A: splitLines(old), B: splitLines(new), FromFile: "a/" + path, ToFile: "b/" + path, Context: contextLines,
		})
		if i > 0 { // one header for the file
			if _, rest, ok := strings.Cut(d, "\n@@"); ok {
				d = "@@" + rest
			}
		}
		b.WriteString(d)
	}
	fc.Added, fc.Removed = Count(b.String())
	fc.Diff, fc.Truncated = Truncate(b.String(), MaxDiff)
	return fc
}
