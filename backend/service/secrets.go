package service

import (
	"encoding/json"
	"strings"
)

// secretFields are the fields of an object setting that hold credentials
// (agents.<name>.api_key). They are stored as given but never read back out
// through the API: the webview and browsers see a mask, and a PUT that
// sends the mask back keeps the stored value.
var secretFields = []string{"api_key"}

// SecretMask stands in for a stored secret in settings read through the API.
const SecretMask = "••••••••"

// maskSecrets replaces secret fields of object settings with SecretMask.
func maskSecrets(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = v
		obj, ok := object(v)
		if !ok {
			continue
		}
		changed := false
		for _, f := range secretFields {
			if s, isString := stringField(obj, f); isString && s != "" {
				obj[f] = json.RawMessage(`"` + SecretMask + `"`)
				changed = true
			}
		}
		if changed {
			if b, err := json.Marshal(obj); err == nil {
				out[k] = b
			}
		}
	}
	return out
}

// keepMaskedSecrets restores, in the incoming settings, every secret field
// that still holds SecretMask to its stored value (or drops it when nothing
// is stored), so a client that saves what it read loses no key.
func keepMaskedSecrets(in, stored map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(in))
	for k, v := range in {
		out[k] = v
		obj, ok := object(v)
		if !ok {
			continue
		}
		old, _ := object(stored[k])
		changed := false
		for _, f := range secretFields {
			if s, isString := stringField(obj, f); isString && strings.HasPrefix(s, SecretMask) {
				if prev, had := old[f]; had {
					obj[f] = prev
				} else {
					delete(obj, f)
				}
				changed = true
			}
		}
		if changed {
			b, err := json.Marshal(obj)
			if err != nil {
				return nil, err
			}
			out[k] = b
		}
	}
	return out, nil
}

func object(v json.RawMessage) (map[string]json.RawMessage, bool) {
	if len(v) == 0 || v[0] != '{' {
		return nil, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil {
		return nil, false
	}
	return obj, true
}

func stringField(obj map[string]json.RawMessage, f string) (string, bool) {
	raw, ok := obj[f]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
