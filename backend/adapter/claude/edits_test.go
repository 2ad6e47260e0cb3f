package claude

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Claude Code's edit tools map to file.changed with the diff their inputs
// describe, on the tool call's card (docs/ARCHITECTURE.md §Events). The
// transcript follows the CLI's stream-json shapes (Edit, MultiEdit, Write
// creating and overwriting, a refused Edit).
func TestEditTranscriptDiffs(t *testing.T) {
	events, _, _ := replay(t, filepath.Join("testdata", "edits.jsonl"))
	var got []run.FileChanged
	for _, e := range events {
		if e.Type == run.EventFileChanged {
			got = append(got, e.Payload.(run.FileChanged))
		}
	}
	want := []struct {
		tool, path, action string
		added, removed     int
		diffHas            []string
	}{
		{"toolu_edit", "notes.md", "modified", 1, 0, []string{"--- a/notes.md", " - write tests\n", "+- ship it\n"}},
		{"toolu_multi", "src/app.go", "modified", 2, 1, []string{"-const name = \"old\"\n", "+const name = \"new\"\n", "+\tlog.Print(name)\n"}},
		{"toolu_write", "hello.txt", "created", 2, 0, []string{"--- /dev/null", "+hello\n", "+world\n"}},
		{"toolu_over", "notes.md", "modified", 0, 0, nil}, // old text unknown: named only
	}
	if len(got) != len(want) {
		t.Fatalf("got %d file.changed, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.ToolCallID != w.tool || g.Path != w.path || g.Action != w.action || g.Added != w.added || g.Removed != w.removed || g.Source != run.SourceAgent {
			t.Errorf("%d: %+v, want %+v", i, g, w)
		}
		for _, s := range w.diffHas {
			if !strings.Contains(g.Diff, s) {
				t.Errorf("%s: diff lacks %q:\n%s", w.tool, s, g.Diff)
			}
		}
		if strings.Contains(g.Diff, "No newline") {
			t.Errorf("%s: a snippet diff claims a missing newline:\n%s", w.tool, g.Diff)
		}
	}
	// The MultiEdit's two replacements share one file header.
	if n := strings.Count(got[1].Diff, "+++ "); n != 1 {
		t.Errorf("MultiEdit diff has %d headers:\n%s", n, got[1].Diff)
	}
}
