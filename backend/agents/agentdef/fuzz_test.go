package agentdef

import (
	"encoding/json"
	"testing"
)

// FuzzAdded: whatever the settings hold, reading the added agents from them
// never panics, and each one read round-trips through its setting.
func FuzzAdded(f *testing.F) {
	f.Add("agents.x", []byte(`{"kind":"acp","name":"X","command":["x","acp"],"env":["A=1"]}`))
	f.Add("agents.y.z", []byte(`{"kind":"command"}`))
	f.Add("agents.e", []byte(`{"kind":"acp","env":["NOEQUALS"]}`))
	f.Fuzz(func(t *testing.T, key string, value []byte) {
		for _, d := range Added(map[string]json.RawMessage{key: value}) {
			back, ok := FromConfig(d.ID, d.Config())
			if !ok || back.Kind != d.Kind || back.Command != d.Command {
				t.Fatalf("%+v read back as %+v", d, back)
			}
		}
	})
}
