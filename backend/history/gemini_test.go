package history_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/history"
)

// geminiRecorded is the recorded chat's path and lines.
func geminiRecorded(t *testing.T) (string, [][]byte) {
	t.Helper()
	file := discoverOne(t, history.Gemini{}, recorded(history.Gemini{}))
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return file, bytes.SplitAfter(b, []byte("\n"))
}

// writeBeside writes a chat next to the recorded one (in a copy of the
// root), so its project folder is found the same way.
func writeBeside(t *testing.T, name string, b []byte) string {
	t.Helper()
	root := copyTree(t, recorded(history.Gemini{}))
	file := discoverOne(t, history.Gemini{}, root)
	p := filepath.Join(filepath.Dir(file), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGeminiReplay: the log is replayed as the CLI replays it — a rewind
// drops the message it names and every later one, a message written
// again keeps its place, a $set of messages replaces them all.
func TestGeminiReplay(t *testing.T) {
	_, lines := geminiRecorded(t)
	var thirdID string
	for _, l := range lines {
		if bytes.Contains(l, []byte(`"[scenario:recall] third"`)) {
			var m struct{ ID string }
			_ = json.Unmarshal(l, &m)
			thirdID = m.ID
		}
	}
	if thirdID == "" {
		t.Fatal("the recorded chat has no third message")
	}
	recorded := bytes.Join(lines, nil)
	for _, tc := range []struct {
		name   string
		append string
		want   []string
	}{
		{"as recorded", "", []string{"[scenario:reasoning] think, then answer", "[scenario:tool] create hello.txt", "[scenario:recall] third"}},
		{"rewound and asked again", `{"$rewindTo":"` + thirdID + `"}
{"id":"n1","timestamp":"2026-11-27T09:00:00Z","type":"user","content":[{"text":"instead this"}]}
{"id":"n2","timestamp":"2026-11-27T09:00:01Z","type":"gemini","content":"ok","model":"gemini-2.5-flash"}
`, []string{"[scenario:reasoning] think, then answer", "[scenario:tool] create hello.txt", "instead this"}},
		{"rewound to an unknown id drops all", `{"$rewindTo":"nope"}
`, nil},
		{"a message written again keeps its place", `{"id":"` + thirdID + `","timestamp":"2026-11-27T09:00:00Z","type":"user","content":[{"text":"edited"}]}
`, []string{"[scenario:reasoning] think, then answer", "[scenario:tool] create hello.txt", "edited"}},
		{"$set messages replaces them", `{"$set":{"messages":[{"id":"x","type":"user","content":"only this"},{"id":"y","type":"gemini","content":"fine"}]}}
`, []string{"only this"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeBeside(t, "session-x.jsonl", append(append([]byte{}, recorded...), tc.append...))
			s, err := history.Read(history.Gemini{}, p)
			if err != nil || len(s.Skipped) != 0 {
				t.Fatalf("%v, skipped %v", err, s.Skipped)
			}
			if got := userTexts(s); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("turns %q, want %q", got, tc.want)
			}
			if s.Workspace != "/work" {
				t.Fatalf("workspace %q", s.Workspace)
			}
		})
	}
}

// TestGeminiOlderJSON: the older whole-file chat (session-*.json, one
// record with every message) reads as the same conversation.
func TestGeminiOlderJSON(t *testing.T) {
	file, _ := geminiRecorded(t)
	s, err := history.Read(history.Gemini{}, file)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []json.RawMessage
	_, lines := geminiRecorded(t)
	for _, l := range lines {
		if bytes.Contains(l, []byte(`"type":"user"`)) || bytes.Contains(l, []byte(`"type":"gemini"`)) {
			if !bytes.HasPrefix(l, []byte(`{"$set"`)) {
				msgs = append(msgs, bytes.TrimSpace(l))
			}
		}
	}
	doc, _ := json.Marshal(map[string]any{"sessionId": s.Origin.NativeID, "projectHash": "h", "startTime": "2026-11-27T08:00:00Z",
		"messages": msgs})
	p := writeBeside(t, "session-old.json", doc)
	old, err := history.Read(history.Gemini{}, p)
	if err != nil || len(old.Skipped) != 0 {
		t.Fatalf("%v %v", err, old.Skipped)
	}
	if !(history.Gemini{}).Match(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(p)))), p) {
		t.Fatalf("%s is not a session file", p)
	}
	if strings.Join(userTexts(old), "|") != strings.Join(userTexts(s), "|") || old.Origin.NativeID != s.Origin.NativeID {
		t.Fatalf("older file reads %q (%s), the log %q", userTexts(old), old.Origin.NativeID, userTexts(s))
	}
	if got, err := history.Read(history.Gemini{}, writeBeside(t, "session-bad.json", []byte("{not json"))); err != nil || len(got.Skipped) != 1 {
		t.Fatalf("a damaged older file: %+v %v", got, err)
	}
}
