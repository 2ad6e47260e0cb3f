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
// removed; a declined change reports nothing.
//
// real-edits.jsonl is recorded from the real CLI (TestRealCodexEdits), one
// file per apply_patch call, the fourth declined.
// handwritten-multi-file-patch.jsonl follows the same item shapes for one
// patch touching three files, which the recording does not make.
func TestFileChangeTranscriptDiffs(t *testing.T) {
	type want struct {
		tool, path, action string
		added, removed     int
		diffHas            []string
	}
	for _, tc := range []struct {
		file string
		want []want
	}{
		{"real-edits.jsonl", []want{
			{"call_edit_0", "notes.md", "created", 2, 0, []string{"--- /dev/null\n+++ b/notes.md\n", "+## Todo\n+- write tests\n"}},
			{"call_edit_1", "notes.md", "modified", 1, 0, []string{"--- a/notes.md\n+++ b/notes.md\n@@", " - write tests\n+- ship it\n"}},
			{"call_edit_2", "hello.txt", "created", 2, 0, []string{"+hello\n+world\n"}},
			{"call_edit_4", "old.txt", "deleted", 0, 1, []string{"+++ /dev/null", "-bye\n"}},
		}},
		{"handwritten-multi-file-patch.jsonl", []want{
			{"call_patch_1", "notes.md", "modified", 1, 0, []string{"--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,3 @@", "+- ship it\n"}},
			{"call_patch_1", "hello.txt", "created", 2, 0, []string{"--- /dev/null", "+hello\n", "+world\n"}},
			{"call_patch_1", "old.txt", "deleted", 0, 1, []string{"+++ /dev/null", "-bye\n"}},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			events, _, _ := replay(t, filepath.Join("testdata", tc.file))
			var got []run.FileChanged
			for _, e := range events {
				if e.Type == run.EventFileChanged {
					got = append(got, e.Payload.(run.FileChanged))
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d file.changed, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				g := got[i]
				if g.ToolCallID != w.tool || g.Path != w.path || g.Action != w.action || g.Added != w.added || g.Removed != w.removed {
					t.Errorf("%d: %+v, want %+v", i, g, w)
				}
				for _, s := range w.diffHas {
					if !strings.Contains(g.Diff, s) {
						t.Errorf("%s: diff lacks %q:\n%s", w.path, s, g.Diff)
					}
				}
			}
		})
	}
}
