package notify

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A run of another host's core says where it ran (docs/ARCHITECTURE.md
// §Remote cores); a local one says nothing of hosts.
func TestNoteSaysTheHost(t *testing.T) {
	for _, tc := range []struct {
		host, name, want string
	}{
		{"", "", "Finished — Task r"},
		{"devbox", "", "Finished — Task r (on devbox)"},
		{"host_1a2b", "me@build-box", "Finished — Task r (on me@build-box)"},
	} {
		e := NewEngine()
		e.Apply(run.WatchMessage{Type: run.WatchSnapshotType}, t0)
		r := st("r", run.StatusCompleted, nil)
		r.Host, r.HostName = tc.host, tc.name
		e.Apply(changed(r), t0)
		due, _ := e.Due()
		ops := e.Flush(due)
		if len(ops) != 1 || ops[0].Note.Summary != tc.want {
			t.Errorf("host %q: %+v, want %q", tc.host, ops, tc.want)
		}
	}
}
