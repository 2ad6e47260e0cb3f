package service

import (
	"encoding/json"
	"testing"
)

func TestSettingsSecretsAreMaskedAndKept(t *testing.T) {
	stored := map[string]json.RawMessage{
		"agents.openai-compatible": json.RawMessage(`{"base_url":"http://x/v1","api_key":"sk-live-1234567890abcdef"}`),
		"retention_days":           json.RawMessage(`30`),
		"agents.claude":            json.RawMessage(`{"api_key":""}`),
	}
	masked := maskSecrets(stored)
	if got := string(masked["agents.openai-compatible"]); got != `{"api_key":"`+SecretMask+`","base_url":"http://x/v1"}` {
		t.Fatalf("masked = %s", got)
	}
	if string(masked["retention_days"]) != "30" || string(masked["agents.claude"]) != `{"api_key":""}` {
		t.Fatalf("non-secrets changed: %s", masked)
	}
	if string(stored["agents.openai-compatible"]) == string(masked["agents.openai-compatible"]) {
		t.Fatal("maskSecrets changed its input")
	}

	tests := []struct {
		name, in, want string
	}{
		{"mask sent back keeps the key", `{"api_key":"` + SecretMask + `","base_url":"http://y/v1"}`, `{"api_key":"sk-live-1234567890abcdef","base_url":"http://y/v1"}`},
		{"new key replaces", `{"api_key":"sk-new"}`, `{"api_key":"sk-new"}`},
		{"no key field", `{"base_url":"http://z"}`, `{"base_url":"http://z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := keepMaskedSecrets(map[string]json.RawMessage{"agents.openai-compatible": json.RawMessage(tt.in)}, stored)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(out["agents.openai-compatible"]); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
	// The mask for a setting with no stored key is dropped, never stored.
	out, _ := keepMaskedSecrets(map[string]json.RawMessage{"agents.codex": json.RawMessage(`{"api_key":"` + SecretMask + `"}`)}, stored)
	if string(out["agents.codex"]) != `{}` {
		t.Fatalf("mask without a stored key: %s", out["agents.codex"])
	}
}
