package acp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Settings reported as configOptions, as a config_option_update, or as the
// older modes become config.updated (by name) and, for a model selector,
// model.updated.
func TestSettingsEvents(t *testing.T) {
	tests := []struct {
		name, session string // a session/new answer
		update        string // or a session/update
		want          string
	}{
		{
			name: "codex-acp: model and reasoning effort",
			session: `{"sessionId":"s","configOptions":[
				{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5","options":[{"value":"gpt-5","name":"GPT-5"},{"value":"gpt-5-mini","name":"GPT-5 mini","description":"fast"}]},
				{"id":"reasoning_effort","name":"Reasoning Effort","category":"thought_level","type":"select","currentValue":"medium","options":[{"value":"low","name":"Low"},{"value":"medium","name":"Medium"}]}]}`,
			want: `config.updated {"options":[{"id":"model","name":"Model","category":"model","type":"select","current":"gpt-5","values":[{"id":"gpt-5","name":"GPT-5"},{"id":"gpt-5-mini","name":"GPT-5 mini","description":"fast"}]},{"id":"reasoning_effort","name":"Reasoning Effort","category":"thought_level","type":"select","current":"medium","values":[{"id":"low","name":"Low"},{"id":"medium","name":"Medium"}]}]}
model.updated {"model":"gpt-5","available":[{"id":"gpt-5","name":"GPT-5"},{"id":"gpt-5-mini","name":"GPT-5 mini","description":"fast"}]}
`,
		},
		{
			name:    "Copilot: modes by name, not by their URL ids; a switch",
			session: `{"sessionId":"s","modes":{"currentModeId":"https://agentclientprotocol.com/protocol/session-modes#agent","availableModes":[{"id":"https://agentclientprotocol.com/protocol/session-modes#agent","name":"Agent"},{"id":"https://agentclientprotocol.com/protocol/session-modes#plan","name":"Plan"}]},"configOptions":[{"id":"allow_all","name":"Allow all","type":"boolean","currentValue":false}]}`,
			want: `config.updated {"options":[{"id":"allow_all","name":"Allow all","type":"boolean","current":"false"},{"id":"acp.modes","name":"Mode","category":"mode","type":"select","current":"https://agentclientprotocol.com/protocol/session-modes#agent","values":[{"id":"https://agentclientprotocol.com/protocol/session-modes#agent","name":"Agent"},{"id":"https://agentclientprotocol.com/protocol/session-modes#plan","name":"Plan"}]}]}
`,
		},
		{
			name:   "config_option_update with grouped values",
			update: `{"sessionUpdate":"config_option_update","configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"b","options":[{"group":"g1","name":"Fast","options":[{"value":"a","name":"A"}]},{"group":"g2","name":"Smart","options":[{"value":"b","name":"B"}]}]}]}`,
			want: `config.updated {"options":[{"id":"model","name":"Model","category":"model","type":"select","current":"b","values":[{"id":"a","name":"A"},{"id":"b","name":"B"}]}]}
model.updated {"model":"b","available":[{"id":"a","name":"A"},{"id":"b","name":"B"}]}
`,
		},
		{
			name:    "nothing about settings",
			session: `{"sessionId":"s","configOptions":[{"name":"no id"}]}`,
			want:    ``,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var outs []Out
			if tt.session != "" {
				var s wireSessionSettings
				if err := json.Unmarshal([]byte(tt.session), &s); err != nil {
					t.Fatal(err)
				}
				outs = settingsEvents(s)
			} else {
				m := NewMapper()
				outs = m.Update(json.RawMessage(tt.update))
				if m.Malformed != 0 || m.Ignored != 0 {
					t.Fatalf("malformed %d ignored %d", m.Malformed, m.Ignored)
				}
			}
			var b strings.Builder
			for _, o := range outs {
				p, _ := json.Marshal(o.Payload)
				b.WriteString(string(o.Type) + " " + string(p) + "\n")
			}
			if b.String() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

// The conn follows the agent's own changes, so the set it answers after a
// person's change is current.
func TestFollowSettings(t *testing.T) {
	c := &conn{}
	c.noteSettings(settingsEvents(wireSessionSettings{ConfigOptions: []json.RawMessage{
		json.RawMessage(`{"id":"model","name":"Model","category":"model","type":"select","currentValue":"a","options":[{"value":"a"},{"value":"b"}]}`),
	}}), false)
	c.followSettings(json.RawMessage(`{"sessionUpdate":"config_option_update","configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"b","options":[{"value":"a"},{"value":"b"}]}]}`))
	if c.currentModel() != "b" || c.option("model").Current != "b" {
		t.Fatalf("model %q, option %+v", c.currentModel(), c.option("model"))
	}
	modes := &wireModes{CurrentModeID: "ask", AvailableModes: []wireMode{{ID: "ask", Name: "Ask"}, {ID: "code", Name: "Code"}}}
	c.config = append(c.config, settingsEvents(wireSessionSettings{Modes: modes})[0].Payload.(run.ConfigUpdated).Options...)
	c.followSettings(json.RawMessage(`{"sessionUpdate":"current_mode_update","currentModeId":"code"}`))
	if o := c.option(legacyModeOption); o == nil || o.Current != "code" {
		t.Fatalf("mode %+v", o)
	}
	if c.pending != nil {
		t.Fatal("updates are emitted by the mapper, not queued twice")
	}
}

// A new session's settings are the agent's defaults (remembered per agent
// to show before a session's first run: codex-acp's read-only mode); a
// loaded session's are its own.
func TestNewSessionSettingsAreDefaults(t *testing.T) {
	answer := json.RawMessage(`{"sessionId":"s","modes":{"currentModeId":"read-only","availableModes":[{"id":"read-only","name":"Read Only"},{"id":"auto","name":"Default"},{"id":"full-access","name":"Full Access"}]},
		"configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5","options":[{"value":"gpt-5"}]}]}`)
	for _, tt := range []struct {
		method   string
		defaults bool
	}{{"session/new", true}, {"session/load", false}} {
		c := &conn{}
		c.onResult(tt.method, answer)
		var cu *run.ConfigUpdated
		for _, o := range c.pending {
			if p, ok := o.Payload.(run.ConfigUpdated); ok {
				cu = &p
			}
		}
		if cu == nil || cu.Defaults != tt.defaults {
			t.Fatalf("%s: config.updated %+v, want defaults %v", tt.method, cu, tt.defaults)
		}
		if mode := c.option(legacyModeOption); mode == nil || mode.Current != "read-only" || mode.Values[0].Name != "Read Only" {
			t.Fatalf("%s: mode %+v", tt.method, mode)
		}
	}
}
