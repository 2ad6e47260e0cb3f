package service

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckAgentSettings(t *testing.T) {
	tests := []struct {
		name, key, value, want string // want: "" = accepted, else part of the message
	}{
		{"full and valid", "agents.claude", `{"command":["/opt/claude","--x"],"env":["A=1","B_2="],"base_url":"https://api.example/v1","api_key":"k","home":"/home/u/.c","options":{"sandbox.mode":"x"}}`, ""},
		{"empty object", "agents.codex", `{}`, ""},
		{"null clears", "agents.codex", `null`, ""},
		{"unknown fields kept", "agents.codex", `{"model":"m","extra":{"a":1}}`, ""},
		{"the mask sent back", "agents.x", `{"api_key":"` + SecretMask + `"}`, ""},
		{"other settings pass", "retention_days", `"abc"`, ""},
		{"not an object", "agents.claude", `"claude --fast"`, "must be an object"},
		{"command not a list", "agents.claude", `{"command":"claude --fast"}`, "command has the wrong type"},
		{"command of numbers", "agents.claude", `{"command":[1,2]}`, "wrong type"},
		{"command without program", "agents.claude", `{"command":[" ","x"]}`, "start with a program"},
		{"env not KEY=VALUE", "agents.claude", `{"env":["A=1","oops"]}`, "env entry 2"},
		{"env name with a dash", "agents.claude", `{"env":["MY-VAR=1"]}`, "env entry 1"},
		{"base_url without scheme", "agents.openai-compatible", `{"base_url":"localhost:8080/v1"}`, "base_url"},
		{"base_url file scheme", "agents.openai-compatible", `{"base_url":"file:///etc/passwd"}`, "base_url"},
		{"home relative", "agents.hermes", `{"home":".hermes"}`, "absolute path"},
		{"option name with a space", "agents.codex", `{"options":{"bad name":"1"}}`, "option"},
		{"options of numbers", "agents.codex", `{"options":{"a":1}}`, "wrong type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkAgentSettings(tt.key, json.RawMessage(tt.value))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || CodeOf(err) != CodeBadRequest || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.key) {
				t.Fatalf("err = %v (code %s), want a bad request naming %s and saying %q", err, CodeOf(err), tt.key, tt.want)
			}
		})
	}
}
