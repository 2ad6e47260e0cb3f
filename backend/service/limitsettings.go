package service

import (
	"bytes"
	"encoding/json"
)

// The numeric limits a person can set are checked when saved, with a
// message saying what is allowed, rather than stored and silently ignored
// by the supervisor (which reads them as supervisor.SettingMaxConcurrent
// and supervisor.SettingMaxWarm; docs/ARCHITECTURE.md §Scheduling).
var limitSettings = map[string]struct {
	min, max int
	what     string
}{
	"max_concurrent_runs": {1, 64, "runs at once"},
	"max_warm_agents":     {0, 64, "warm agents"},
}

// checkLimitSetting returns a bad-request error if key is a limit and v is
// not a whole number in its range; null clears it (the default applies).
func checkLimitSetting(key string, v json.RawMessage) error {
	lim, ok := limitSettings[key]
	if !ok {
		return nil
	}
	v = bytes.TrimSpace(v)
	if string(v) == "null" {
		return nil
	}
	var n int
	if err := json.Unmarshal(v, &n); err != nil || n < lim.min || n > lim.max {
		return badRequest("%s: the number of %s must be a whole number from %d to %d", key, lim.what, lim.min, lim.max)
	}
	return nil
}
