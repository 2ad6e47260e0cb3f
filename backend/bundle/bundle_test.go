package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func sample() Bundle {
	ev := func(seq int64, t run.EventType, p any) run.Event {
		raw, _ := json.Marshal(p)
		return run.Event{EventID: run.EventID("r1", seq), Seq: seq, RunID: "r1", SessionID: "s1", Type: t, Payload: raw, Terminal: t == run.EventDone}
	}
	return Bundle{
		Manifest: Manifest{
			ExportedAt: time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC),
			Project:    Project{Name: "demo", Workspace: "/w"},
			Session:    run.Session{ID: "s1", Title: "Fix the notes", Agent: "demo"},
			Messages: []run.Message{
				{ID: "u1", Role: run.RoleUser, Content: "append a line", RunID: "r1"},
				{ID: "a1", Role: run.RoleAssistant, Content: "Done: appended.", RunID: "r1"},
			},
			Runs: []Run{{ID: "r1", UserMessageID: "u1", AssistantMessageID: "a1", Agent: "demo", Status: run.StatusCompleted}},
		},
		Events: map[string][]run.Event{"r1": {
			ev(1, run.EventToolStarted, run.ToolStarted{ToolCallID: "t1", Name: "Write", Title: "Write notes.md"}),
			ev(2, run.EventToolDone, run.ToolDone{ToolCallID: "t1", Status: "completed"}),
			ev(3, run.EventFileChanged, run.FileChanged{Path: "notes.md", Action: "modified", Diff: "--- a/notes.md\n+++ b/notes.md\n@@ -1 +1,2 @@\n a\n+b\n", Added: 1, Source: "agent"}),
			ev(4, run.EventFileChanged, run.FileChanged{Path: "logo.png", Action: "created", Binary: true, Source: "workspace"}),
			ev(5, run.EventDone, run.Done{Status: run.StatusCompleted}),
		}},
	}
}

func encode(t *testing.T, b Bundle) []byte {
	var buf bytes.Buffer
	if err := Encode(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	raw := encode(t, sample())
	if !bytes.HasPrefix(raw, []byte(`{"format":"hermesdesk.session-bundle","version":1,`)) {
		t.Fatalf("manifest line: %.80s", raw)
	}
	b, err := Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Events["r1"]) != 5 || b.Manifest.Session.Title != "Fix the notes" {
		t.Fatalf("%+v", b)
	}
}

func TestDecodeRefusesBadBundles(t *testing.T) {
	good := string(encode(t, sample()))
	lines := strings.Split(strings.TrimSuffix(good, "\n"), "\n")
	join := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	newer := strings.Replace(lines[0], `"version":1`, `"version":2`, 1)
	cases := []struct {
		name, in, says string
	}{
		{"empty", "", "empty"},
		{"not json", "hello\n", "not a Hermes Desk session bundle"},
		{"other json", `{"a":1}` + "\n", "not a Hermes Desk session bundle"},
		{"newer format", join(append([]string{newer}, lines[1:]...)...), "newer Hermes Desk (format 2"},
		{"broken event", join(lines[0], lines[1], `{"seq":`), "line 3 of the bundle is not a valid event"},
		{"unknown run", join(lines[0], strings.Replace(lines[1], `"run_id":"r1"`, `"run_id":"r9"`, 1)), "run the manifest does not list"},
		{"out of order", join(lines[0], lines[2], lines[1]), "out of order"},
		{"after done", join(append(lines, strings.Replace(lines[5], `"seq":5`, `"seq":6`, 1))...), "follows its run's end"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(c.in))
			if !errors.Is(err, ErrBundle) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want one saying %q", err, c.says)
			}
		})
	}
}

func TestMarkdown(t *testing.T) {
	md := Markdown(sample())
	for _, want := range []string{
		"# Fix the notes", "- Project: demo (`/w`)", "## You\n\nappend a line", "- Write — Write notes.md (completed)",
		"Changes: 2 files changed, +1 −0", "- `notes.md` modified +1 −0", "  ```diff\n", "  +b\n", "- `logo.png` created (binary)", "Done: appended.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// The export carries what was asked and decided and the files sent, and
// keeps anyone's raw HTML as text (issue 21 item 13, issue 23 item 19).
func TestMarkdownPromptsAttachmentsAndHTML(t *testing.T) {
	b := sample()
	b.Manifest.Session.Title = "<img src=x onerror=alert(1)>"
	b.Manifest.Messages[0].Content = "look <script>steal()</script> at `a<b>`"
	b.Manifest.Messages[0].Attachments = []string{"/home/p/shot.png", "/home/p/spec.pdf"}
	b.Manifest.Messages[1].Content = "Done <iframe src=evil></iframe>\n\n```html\n<b>kept</b>\n```"
	ev := func(seq int64, t run.EventType, p any) run.Event {
		raw, _ := json.Marshal(p)
		return run.Event{Seq: seq, RunID: "r1", Type: t, Payload: raw}
	}
	evs := b.Events["r1"]
	done := evs[len(evs)-1]
	b.Events["r1"] = append(evs[:len(evs)-1],
		ev(5, run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "ap1", Title: "Run <b>rm</b>", Command: "rm -rf build",
			Options: []run.ApprovalOption{{ID: "yes", Label: "Allow once"}, {ID: "no", Label: "Reject"}}}),
		ev(6, run.EventApprovalResolved, run.ApprovalResolved{ApprovalID: "ap1", Choice: "yes", By: "notification"}),
		ev(7, run.EventClarifyRequest, run.ClarifyRequested{ClarifyID: "c1", Question: "Which branch?"}),
		ev(8, run.EventClarifyResolved, run.ClarifyResolved{ClarifyID: "c1", Answer: "main"}),
		ev(9, run.EventApprovalRequest, run.ApprovalRequested{ApprovalID: "ap2", Title: "Push"}),
		done,
	)
	b.Events["r1"][len(b.Events["r1"])-1].Seq = 10
	md := Markdown(b)
	for _, want := range []string{
		"# &lt;img src=x onerror=alert(1)>",
		"look &lt;script>steal()&lt;/script> at `a<b>`",
		"Attached: `shot.png`, `spec.pdf`",
		"Done &lt;iframe src=evil>&lt;/iframe>",
		"```html\n<b>kept</b>\n```",
		"- Approval: Run &lt;b>rm&lt;/b> `rm -rf build` — Allow once (notification)",
		"- Question: Which branch? — main",
		"- Approval: Push — _no answer_",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	for _, bad := range []string{"<img", "<script", "<iframe"} {
		if strings.Contains(md, bad) {
			t.Errorf("markdown passes raw HTML %q through:\n%s", bad, md)
		}
	}
}
