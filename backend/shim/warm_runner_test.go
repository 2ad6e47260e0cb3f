package shim

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// Only a turn that completed, with its done recorded, on a live agent
// leaves the agent to the shim; anything else closes it as before.
func TestRunnerKeepsAgentOnlyAfterACompletedTurn(t *testing.T) {
	tests := []struct {
		name     string
		res      adapter.TurnResult
		dies     bool // the agent exits as the turn ends
		shimSays bool // warmUp's answer
		failDone bool
		// perTurn: the adapter runs one process per turn (hermes-chat, a
		// command agent), which exits with the turn.
		perTurn  bool
		wantKept bool
	}{
		{name: "completed", res: adapter.TurnResult{StopReason: "end_turn"}, shimSays: true, wantKept: true},
		{name: "completed, shim declines", res: adapter.TurnResult{StopReason: "end_turn"}},
		{name: "failed", res: adapter.TurnResult{Err: errBoom}, shimSays: true},
		{name: "cancelled", res: adapter.TurnResult{Cancelled: true}, shimSays: true},
		{name: "agent died", res: adapter.TurnResult{StopReason: "end_turn"}, dies: true, shimSays: true},
		{name: "done not recorded", res: adapter.TurnResult{StopReason: "end_turn"}, shimSays: true, failDone: true},
		// Its recorded pid is a reaped process's, free for reuse: a warm
		// shim would later signal that pid's group (cancel, fence, exit).
		{name: "per-turn process ended", res: adapter.TurnResult{StopReason: "end_turn"}, shimSays: true, perTurn: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn := &fakeConn{done: make(chan struct{})}
			var host adapter.Host
			conn.turn = func(ctx context.Context, _ adapter.TurnRequest, _ adapter.Emitter) adapter.TurnResult {
				if tc.perTurn {
					p, err := host.Launcher.Launch(ctx, adapter.ProcSpec{Path: "/bin/true", Dir: t.TempDir(), Env: []string{}})
					if err != nil {
						t.Error(err) // not Fatal: Turn runs on the runner's goroutine
						return adapter.TurnResult{Err: err}
					}
					p.Wait()
				}
				if tc.dies {
					conn.Close()
				}
				return tc.res
			}
			a := &fakeAdapter{start: func(_ context.Context, _ adapter.StartRequest, h adapter.Host) (adapter.Conn, error) {
				host = h
				return conn, nil
			}}
			j := &memJournal{}
			if tc.failDone {
				j.fail = func(t run.EventType, _ bool) error {
					if t == run.EventDone {
						return errBoom
					}
					return nil
				}
			}
			h := newHub(0)
			j.onCommit = h.publish
			dir := t.TempDir()
			spec := control.Spec{RunID: "run_1", SessionID: "ses_1", Agent: "fake", Message: "hi", DataDir: dir, DBPath: dir + "/db"}
			r := newRunner(spec, j.journal(), j.writer(), h, adapter.NewRegistry(a), slog.New(slog.DiscardHandler), io.Discard, nil)
			r.tm = timings{protocolCancel: 20 * time.Millisecond, abandon: 50 * time.Millisecond, doneRetries: 2, doneBackoff: time.Millisecond}
			r.warmUp = func(*runner) bool { return tc.shimSays }
			kept := r.run(context.Background())
			if (kept != nil) != tc.wantKept {
				t.Fatalf("kept = %v, want %v", kept != nil, tc.wantKept)
			}
			select {
			case <-conn.done:
				if tc.wantKept {
					t.Fatal("the kept agent was closed")
				}
			default:
				if !tc.wantKept {
					t.Fatal("an agent not kept was left open")
				}
			}
		})
	}
}

// A run on a warm connection plays its turn without starting the agent.
func TestRunnerPlaysOnWarmConnection(t *testing.T) {
	turns := 0
	conn := &fakeConn{done: make(chan struct{}), nativeID: "native-1"}
	conn.turn = func(_ context.Context, req adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
		turns++
		emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "again: " + req.Message})
		return adapter.TurnResult{StopReason: "end_turn"}
	}
	a := &fakeAdapter{start: func(context.Context, adapter.StartRequest, adapter.Host) (adapter.Conn, error) {
		t.Error("a warm run started the agent")
		return nil, errBoom
	}}
	j := &memJournal{}
	h := newHub(0)
	j.onCommit = h.publish
	dir := t.TempDir()
	spec := control.Spec{RunID: "run_1", SessionID: "ses_1", Agent: "fake", Message: "hi", DataDir: dir, DBPath: dir + "/db", NativeSessionID: "native-1"}
	r := newRunner(spec, j.journal(), j.writer(), h, adapter.NewRegistry(a), slog.New(slog.DiscardHandler), io.Discard, nil)
	r.warm = conn
	r.beforeStart = func(context.Context) error { t.Error("a warm run claimed the session again"); return nil }
	if kept := r.run(context.Background()); kept != nil {
		t.Fatal("kept without warmUp")
	}
	if turns != 1 || !j.has(run.EventTokenDelta) || j.has(run.EventNotice) {
		t.Fatalf("turns %d, events %+v", turns, j.all())
	}
}
