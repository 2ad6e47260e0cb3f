package shim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// The whole shim in one process, under -race: clients subscribe, read a
// little, hang up and ask for status over and over while the run streams
// and ends, and one connects and never says a word. Serve must return
// (the silent client is cut after the shutdown grace), every client must
// see the end, and nothing may race (the shim binary's own -race log is
// only read by the supervisor's tests, much later and much coarser).
func TestServeUnderConcurrentClients(t *testing.T) {
	// Warm off: Serve returns after the run. Warm for a moment: the shim
	// keeps the agent, then retires on its idle timer while clients call.
	for _, idle := range []int64{-1, 50} {
		t.Run(fmt.Sprintf("warm_idle_ms=%d", idle), func(t *testing.T) { serveUnderConcurrentClients(t, idle) })
	}
}

func serveUnderConcurrentClients(t *testing.T, warmIdleMs int64) {
	const clients = 6
	streamed := make(chan struct{})
	finish := make(chan struct{})
	c := &fakeConn{turn: func(_ context.Context, _ adapter.TurnRequest, emit adapter.Emitter) adapter.TurnResult {
		for i := range 200 {
			emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "x"})
			if i == 100 {
				close(streamed)
			}
		}
		<-finish
		emit.Emit(run.EventTokenDelta, run.TextDelta{Text: "last"})
		return adapter.TurnResult{StopReason: "end_turn"}
	}}
	dir := t.TempDir()
	t.Cleanup(func() { os.RemoveAll(paths.RuntimeDir(dir)) })
	spec := control.Spec{RunID: "run_1", SessionID: "ses_1", Agent: "fake", Message: "hi", DataDir: dir, DBPath: dir + "/db", WarmIdleMs: warmIdleMs}
	j := &memJournal{}
	served := make(chan error, 1)
	go func() {
		served <- Serve(context.Background(), spec, Deps{
			Registry: adapter.NewRegistry(connAdapter(adapter.Capabilities{}, c)),
			OpenJournal: func(_ string, onCommit func([]run.Event)) (Journal, error) {
				j.mu.Lock()
				j.onCommit = onCommit
				j.mu.Unlock()
				return j.journal(), nil
			},
		})
	}()
	var boot control.Bootstrap
	waitUntil(t, "the bootstrap", func() bool {
		var err error
		boot, err = control.ReadBootstrap(dir, spec.RunID)
		return err == nil
	})
	<-streamed

	silent, err := net.Dial("unix", boot.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()

	var wg sync.WaitGroup
	var rounds atomic.Int32
	ended := make([]bool, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			for n := 0; ; n++ {
				rounds.Add(1)
				if i%2 == 0 {
					if _, err := control.Call(ctx, boot, control.Request{Op: control.OpStatus}); err != nil {
						ended[i] = errors.Is(err, control.ErrUnreachable)
						return
					}
					continue
				}
				sub, err := control.Subscribe(ctx, boot, int64(n%50))
				if err != nil {
					ended[i] = errors.Is(err, control.ErrUnreachable) || errors.Is(err, control.ErrEnded)
					return
				}
				for range n % 4 {
					if _, err := sub.Next(); err != nil {
						sub.Close()
						ended[i] = errors.Is(err, control.ErrEnded) || errors.Is(err, control.ErrUnreachable)
						return
					}
				}
				sub.Close()
			}
		}()
	}
	waitUntil(t, "the clients to get going", func() bool { return rounds.Load() > 4*clients })
	close(finish)
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after its run ended")
	}
	wg.Wait()
	for i, ok := range ended {
		if !ok {
			t.Errorf("client %d ended with an unexpected error", i)
		}
	}
	var h harness
	h.t, h.j = t, j
	if d := h.done(); d.Status != run.StatusCompleted {
		t.Fatalf("done %+v", d)
	}
}
