package shim

import (
	"context"
	"io"
	"log/slog"
	"reflect"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// An agent's configured Options (the Codex sandbox, …) reach its adapter as
// StartRequest.Metadata: the run engine's only path for them.
func TestConfigOptionsReachStart(t *testing.T) {
	opts := map[string]string{"sandbox": "danger-full-access", "approval_policy": "never"}
	got := make(chan adapter.StartRequest, 1)
	a := &fakeAdapter{start: func(_ context.Context, req adapter.StartRequest, _ adapter.Host) (adapter.Conn, error) {
		got <- req
		return nil, adapter.ErrNotInstalled
	}}
	dir := t.TempDir()
	spec := control.Spec{RunID: "run_1", SessionID: "ses_1", Agent: "fake", Message: "hi", DataDir: dir, DBPath: dir + "/db",
		Workspace: dir, Config: adapter.Config{Command: []string{"agent"}, Options: opts}}
	j := &memJournal{}
	h := newHub(0)
	j.onCommit = h.publish
	r := newRunner(spec, j.journal(), j.writer(), h, adapter.NewRegistry(a), slog.New(slog.DiscardHandler), io.Discard, nil)
	r.run(context.Background())
	req := <-got
	if !reflect.DeepEqual(req.Metadata, opts) || !reflect.DeepEqual(req.Config.Options, opts) {
		t.Fatalf("start request metadata %v, config options %v; want %v", req.Metadata, req.Config.Options, opts)
	}
}
