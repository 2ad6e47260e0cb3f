package agenttest

import "testing"

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"timestamp":"2026-11-25T02:37:22.336Z","x":1}`, `{"timestamp":"2000-01-01T00:00:00.000Z","x":1}`},
		{`{"startedAtMs":1795574264300,"completedAtMs":null}`, `{"startedAtMs":0,"completedAtMs":null}`},
		{`{"createdAt":1795574264,"updatedAt":1795574265}`, `{"createdAt":0,"updatedAt":0}`},
		{`{"duration_ms":1234,"exit_code":0}`, `{"duration_ms":1234,"exit_code":0}`}, // a duration, not a clock
		{`"path":"/home/.codex/sessions/2026/11/25/rollout-2026-11-25T02-37-44-01a2.jsonl"`,
			`"path":"/home/.codex/sessions/2000/01/01/rollout-2000-01-01T00-00-00-01a2.jsonl"`},
		{`{"text":"at 2026-11-25T02:37:22Z"}`, `{"text":"at 2026-11-25T02:37:22Z"}`}, // prose stays
	} {
		if got := Normalize(tc.in); got != tc.want {
			t.Errorf("Normalize(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestSortPairsLongestFirst(t *testing.T) {
	got := sortPairs([]string{"/tmp/a", "/x", "/tmp/a/work", "/work"})
	if got[0] != "/tmp/a/work" || got[2] != "/tmp/a" {
		t.Fatalf("%v", got)
	}
}
