package codex

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Codex's fileChange items map to file.changed on the item's card
// (docs/ARCHITECTURE.md §Events): an update's hunks get file headers, an
// added file's content becomes an all-added diff, a deleted one's all
// removed; a declined change reports nothing. The transcript follows the
// app-server's item shapes.
func TestFileChangeTranscriptDiffs(t *testing.T) {
	events, _, _ := replay(t, filepath.Join("testdata", "file-change.jsonl"))
	var got []run.FileChanged
	for _, e := range events {
		if e.Type == run.EventFileChanged {
			got = append(got, e.Payload.(run.FileChanged))
		}
	}
	want := []struct {
		path, action   string
		added, removed int
		diffHas        []string
	}{
		{"notes.md", "modified", 1, 0, []string{"--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,3 @@", "+- ship it\n"}},
		{"hello.txt", "created", 2, 0, []string{"--- /dev/null", "+hello\n", "+world\n"}},
		{"old.txt", "deleted", 0, 1, []string{"+++ /dev/null", "-bye\n"}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d file.changed, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.ToolCallID != "call_patch_1" || g.Path != w.path || g.Action != w.action || g.Added != w.added || g.Removed != w.removed {
			t.Errorf("%d: %+v, want %+v", i, g, w)
		}
		for _, s := range w.diffHas {
			if !strings.Contains(g.Diff, s) {
				t.Errorf("%s: diff lacks %q:\n%s", w.path, s, g.Diff)
			}
		}
	}
}
