package claude

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

type wantChange struct {
	tool, path, action string
	added, removed     int
	diffHas            []string
}

// Claude Code's edit tools map to file.changed with the diff they made, on
// the tool call's card (docs/ARCHITECTURE.md §Events).
//
// real-edits.jsonl is recorded from the real CLI (TestRealClaudeEdits): its
// tool_use_result carries the file's old text, so every diff is of the
// whole file with true line numbers, an overwrite included.
// handwritten-multiedit.jsonl covers what 2.1.197 no longer produces:
// MultiEdit, and lines without tool_use_result (older releases), where
// Edit diffs the replaced snippets and an overwrite is named only.
func TestEditTranscriptDiffs(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []wantChange
	}{
		{"real-edits.jsonl", []wantChange{
			{"call_edit_0", "notes.md", "created", 2, 0, []string{"--- /dev/null\n+++ b/notes.md\n", "+## Todo\n+- write tests\n"}},
			{"call_edit_1", "notes.md", "modified", 1, 0, []string{"@@ -1,2 +1,3 @@\n ## Todo\n - write tests\n+- ship it\n"}},
			{"call_edit_2", "hello.txt", "created", 2, 0, []string{"+hello\n+world\n"}},
			{"call_edit_3", "notes.md", "modified", 1, 3, []string{"-## Todo\n-- write tests\n-- ship it\n+replaced\n"}},
		}},
		{"handwritten-multiedit.jsonl", []wantChange{
			{"toolu_edit", "notes.md", "modified", 1, 0, []string{"--- a/notes.md", " - write tests\n", "+- ship it\n"}},
			{"toolu_multi", "src/app.go", "modified", 2, 1, []string{"-const name = \"old\"\n", "+const name = \"new\"\n", "+\tlog.Print(name)\n"}},
			{"toolu_write", "hello.txt", "created", 2, 0, []string{"--- /dev/null", "+hello\n", "+world\n"}},
			{"toolu_over", "notes.md", "modified", 0, 0, nil}, // old text unknown: named only
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got := fileChanges(t, tc.file)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d file.changed, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
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
					t.Errorf("%s: a diff claims a missing newline:\n%s", w.tool, g.Diff)
				}
			}
		})
	}
	// The MultiEdit's two replacements share one file header.
	if got := fileChanges(t, "handwritten-multiedit.jsonl"); strings.Count(got[1].Diff, "+++ ") != 1 {
		t.Errorf("MultiEdit diff has several headers:\n%s", got[1].Diff)
	}
}

func fileChanges(t *testing.T, file string) []run.FileChanged {
	t.Helper()
	events, _, _ := replay(t, filepath.Join("testdata", file))
	var got []run.FileChanged
	for _, e := range events {
		if e.Type == run.EventFileChanged {
			got = append(got, e.Payload.(run.FileChanged))
		}
	}
	return got
}

// A tool_use_result that names another file than the call's input (lines
// out of step) is not used: the change falls back to the input alone.
func TestEditResultOfAnotherFileIgnored(t *testing.T) {
	m := NewMapper("/work")
	lines := []string{
		`{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"w","name":"Write","input":{"file_path":"/work/a.txt","content":"new\n"}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"w","type":"tool_result","content":"The file /work/a.txt has been updated successfully."}]},"tool_use_result":{"type":"update","filePath":"/work/b.txt","originalFile":"old\n"}}`,
	}
	var got []run.FileChanged
	for _, l := range lines {
		mp, err := m.Map([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range mp.Events {
			if e.Type == run.EventFileChanged {
				got = append(got, e.Payload.(run.FileChanged))
			}
		}
	}
	if len(got) != 1 || got[0].Path != "a.txt" || got[0].Diff != "" || got[0].Action != "modified" {
		t.Fatalf("%+v", got)
	}
}

// A tool_use_result that is not an edit's object (Claude Code sends a plain
// string for some results) leaves the input's own diff.
func TestEditResultNotAnObject(t *testing.T) {
	for _, raw := range []string{`"Error: something"`, `{"filePath":"/work/a.txt","originalFile":7}`, `{"filePath":7,"originalFile":"a\nx\n"}`, `null`} {
		m := NewMapper("/work")
		_, _ = m.Map([]byte(`{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"e","name":"Edit","input":{"file_path":"/work/a.txt","old_string":"x\n","new_string":"y\n"}}]}}`))
		mp, err := m.Map([]byte(`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"e","type":"tool_result","content":"updated"}]},"tool_use_result":` + raw + `}`))
		if err != nil {
			t.Fatal(err)
		}
		var fc *run.FileChanged
		for _, e := range mp.Events {
			if e.Type == run.EventFileChanged {
				p := e.Payload.(run.FileChanged)
				fc = &p
			}
		}
		if fc == nil || !strings.Contains(fc.Diff, "@@ -1 +1 @@\n-x\n+y\n") {
			t.Errorf("%s: %+v", raw, fc)
		}
	}
}
