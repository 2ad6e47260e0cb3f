package history

import (
	"encoding/json"
	"testing"
)

func TestGeminiThoughts(t *testing.T) {
	for _, tc := range []struct{ name, thoughts, want string }{
		{"streamed fragments", `[{"subject":"","description":"The"},{"subject":"","description":"user"}]`, "The user"},
		{"subjects are paragraphs", `[{"subject":"Reading","description":"I look."},{"subject":"Answering","description":"I say."}]`,
			"**Reading** I look.\n\n**Answering** I say."},
		{"a subject alone", `[{"subject":"Planning","description":""}]`, "**Planning**"},
		{"none", `[]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m geminiRecord
			if err := json.Unmarshal([]byte(`{"id":"x","type":"gemini","thoughts":`+tc.thoughts+`}`), &m); err != nil {
				t.Fatal(err)
			}
			if got := geminiThoughts(m); got != tc.want {
				t.Fatalf("%q, want %q", got, tc.want)
			}
		})
	}
}
