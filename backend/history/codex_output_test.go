package history

import (
	"encoding/json"
	"testing"
)

// TestCodexToolDone: the output shapes Codex versions wrote.
func TestCodexToolDone(t *testing.T) {
	for _, tc := range []struct {
		name, raw, status, output string
		exit                      int // -1: none
	}{
		{"new text header", `"Chunk ID: 1\nWall time: 0 seconds\nProcess exited with code 0\nOutput:\nhello\n"`, "completed", "hello\n", 0},
		{"new text header, failed", `"Process exited with code 2\nOutput:\nno such file"`, "failed", "no such file", 2},
		{"old JSON string", `"{\"output\":\"hi\\n\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.1}}"`, "failed", "hi\n", 1},
		{"content and success", `{"content":"patched","success":true}`, "completed", "patched", -1},
		{"content, no success", `{"content":"bad patch","success":false}`, "failed", "bad patch", -1},
		{"plain text", `"Success. Updated the following files"`, "completed", "Success. Updated the following files", -1},
		{"garbage", `12`, "completed", "", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := codexToolDone("c1", json.RawMessage(tc.raw))
			if d.Status != tc.status || d.Output != tc.output || (tc.exit < 0) != (d.ExitCode == nil) || (d.ExitCode != nil && *d.ExitCode != tc.exit) {
				t.Fatalf("%+v (exit %v)", d, d.ExitCode)
			}
		})
	}
}
