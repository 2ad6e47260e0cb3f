//go:build unix

package remote

import (
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// For the end-to-end test through the core's wiring (package remote_test,
// which may import apihost: apihost imports this package).

// TestCore is a started stand-in host.
type TestCore struct {
	Socket   string
	Client   *httpapi.Client
	StartRun func(message string) run.StartResult
	Finish   func(runID string) int64
}

func StartTestCore(t testing.TB) TestCore {
	rc := startRemoteCore(t)
	return TestCore{Socket: rc.socket, Client: rc.client,
		StartRun: func(m string) run.StartResult { return rc.startRun(t, m) },
		Finish:   func(id string) int64 { return rc.finish(t, id) }}
}

// TestRelay is the SSH forward's stand-in (Cut, Restore).
type TestRelay = relay

func NewTestRelay(t testing.TB, host, target string) *TestRelay { return newRelay(t, host, target) }
