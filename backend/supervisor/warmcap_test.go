package supervisor_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
	"github.com/hermesdesk/hermesdesk/testkit/runprocs"
)

// One finished run in each of several sessions leaves at most the cap of
// warm agents; the least recently used retire first, and deep health
// reports the memory of those that stay.
func TestWarmAgentsAreCapped(t *testing.T) {
	tests := []struct {
		name    string
		setting string // max_warm_agents; "" leaves the configured cap (2)
		keep    int
	}{
		{"configured cap", "", 2},
		{"setting", "1", 1},
		{"setting none", "0", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, func(c *supervisor.Config) { c.MaxWarm = 2 })
			if tc.setting != "" {
				if err := e.store.PutSetting(context.Background(), supervisor.SettingMaxWarm, json.RawMessage(tc.setting)); err != nil {
					t.Fatal(err)
				}
			}
			var sessions []string
			var shims []int
			for i := range 4 {
				ses := e.session.ID
				if i > 0 {
					ses = e.newSession().ID
				}
				res, _ := e.runDone(ses, "/scenario models")
				sessions = append(sessions, ses)
				shims = append(shims, e.boot(res.RunID).Pid)
			}
			// The last runs' sessions keep theirs; the older ones' shims exit.
			e.waitFor("warm agents beyond the cap to retire", 30*time.Second, func() bool {
				for i := range sessions[:len(sessions)-tc.keep] {
					if runprocs.Alive(shims[i]) {
						return false
					}
				}
				return true
			})
			warm := e.sup.WarmAgents()
			if len(warm) != tc.keep {
				t.Fatalf("%d warm agents, want %d: %+v", len(warm), tc.keep, warm)
			}
			for i, w := range warm {
				want := sessions[len(sessions)-1-i] // most recently used first
				if w.SessionID != want || w.RSSBytes <= 0 {
					t.Fatalf("warm agent %d: %+v, want session %s with its memory counted", i, w, want)
				}
				if _, err := control.ReadWarm(e.dataDir, want); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
