package history_test

import (
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// line builds a Claude Code transcript line.
func line(typ, uuid, parent, content string, extra ...string) string {
	p := `null`
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"s1","cwd":"/w","version":"9"` +
		strings.Join(extra, "") + `,"message":{"role":"` + typ + `","content":` + content + `}}`
}

func userTexts(s *history.Session) []string {
	var out []string
	for _, tn := range s.Turns {
		out = append(out, tn.Events[0].Payload.(run.MessageUser).Text)
	}
	return out
}

// TestClaudeTree: the conversation is the path to the newest leaf.
func TestClaudeTree(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{"a rewind leaves the old branch out", []string{
			line("user", "u1", "", `"first"`),
			line("assistant", "a1", "u1", `[{"type":"text","text":"one"}]`),
			line("user", "u2", "a1", `"abandoned"`),
			line("assistant", "a2", "u2", `[{"type":"text","text":"two"}]`),
			line("user", "u3", "a1", `"rewritten"`),
		}, []string{"first", "rewritten"}},
		{"a subagent's sidechain is not the conversation", []string{
			line("user", "u1", "", `"first"`),
			line("user", "s1", "u1", `"subagent prompt"`, `,"isSidechain":true`),
		}, []string{"first"}},
		{"meta lines are not typed by a person", []string{
			line("user", "u1", "", `"<local-command-caveat>x"`, `,"isMeta":true`),
			line("user", "u2", "u1", `[{"type":"text","text":"look"},{"type":"image","source":{}}]`),
		}, []string{"look\n[image]"}},
		{"a compact boundary links on by logicalParentUuid", []string{
			line("user", "u1", "", `"before"`),
			`{"type":"system","subtype":"compact_boundary","uuid":"c1","parentUuid":null,"logicalParentUuid":"u1"}`,
			line("user", "u2", "c1", `"after"`),
		}, []string{"before", "after"}},
		{"a cycle in a damaged file ends", []string{
			line("user", "u1", "u2", `"a"`),
			line("user", "u2", "u1", `"b"`),
		}, []string{"a", "b"}},
		{"no messages, no turns", []string{`{"type":"summary","summary":"t","leafUuid":"x"}`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := history.Claude{}.Parse(strings.NewReader(strings.Join(tc.lines, "\n")+"\n"), "x.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if got := userTexts(s); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("turns %q, want %q", got, tc.want)
			}
		})
	}
}

// TestClaudeRedactedThinking: encrypted thinking is never shown.
func TestClaudeRedactedThinking(t *testing.T) {
	in := line("user", "u1", "", `"q"`) + "\n" +
		line("assistant", "a1", "u1", `[{"type":"redacted_thinking","data":"ENCRYPTED"},{"type":"text","text":"a"}]`) + "\n"
	s, err := history.Claude{}.Parse(strings.NewReader(in), "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := eventTypes(s.Turns[0]); got != "message.user token.delta done" || strings.Contains(jsonOf(t, s), "ENCRYPTED") {
		t.Fatalf("%s", got)
	}
}
