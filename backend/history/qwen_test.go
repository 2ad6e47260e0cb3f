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

// TestQwenTree: the conversation is the path from the last record back, so
// a branch made from an earlier message (a rewind, an edit) leaves the old
// one out, and a cycle in a damaged file ends the walk.
func TestQwenTree(t *testing.T) {
	f := history.Qwen{}
	file := discoverOne(t, f, recorded(f))
	full, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var firstAnswer string
	for _, l := range bytes.Split(full, []byte("\n")) {
		var r struct{ UUID, Type string }
		if json.Unmarshal(l, &r) == nil && r.Type == "assistant" {
			firstAnswer = r.UUID
			break
		}
	}
	rec := func(uuid, parent, typ, text string) string {
		role := map[string]string{"user": "user", "assistant": "model"}[typ]
		return `{"uuid":"` + uuid + `","parentUuid":"` + parent + `","sessionId":"s","timestamp":"2026-11-27T09:00:00Z","type":"` + typ +
			`","cwd":"/work","version":"0.15.10","message":{"role":"` + role + `","parts":[{"text":"` + text + `"}]}}` + "\n"
	}
	for _, tc := range []struct {
		name, extra string
		want        []string
	}{
		{"as recorded", "", []string{"[scenario:reasoning] think, then answer", "[scenario:tool] create hello.txt", "[scenario:recall] third"}},
		{"a branch from the first answer", rec("b1", firstAnswer, "user", "other way") + rec("b2", "b1", "assistant", "sure"),
			[]string{"[scenario:reasoning] think, then answer", "other way"}},
		{"a cycle", rec("c1", "c2", "user", "loop") + rec("c2", "c1", "assistant", "again"), []string{"loop"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(p, append(append([]byte{}, full...), tc.extra...), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := history.Read(f, p)
			if err != nil || strings.Join(userTexts(s), "|") != strings.Join(tc.want, "|") {
				t.Fatalf("turns %q (%v), want %q", userTexts(s), err, tc.want)
			}
		})
	}
}
