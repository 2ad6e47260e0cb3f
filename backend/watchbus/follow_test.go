package watchbus_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/watchbus"
	"github.com/hermesdesk/hermesdesk/testkit/watchfake"
)

func TestFollowRetriesAFailingWatch(t *testing.T) {
	bus := watchfake.New()
	bus.Fail(errors.New("not yet"))
	got := make(chan run.WatchMessage, 4)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchbus.Follow(ctx, bus, func(m run.WatchMessage) { got <- m }, watchbus.Options{})
	}()
	bus.Fail(nil)
	if m := <-got; m.Type != run.WatchSnapshotType {
		t.Fatalf("first message %q", m.Type)
	}
	cancel()
	<-done
}

// After a goodbye the follower watches again: fn sees the goodbye, then a
// fresh snapshot; Ended is told once per ended stream, before the pause.
func TestFollowReconnectsAfterGoodbye(t *testing.T) {
	bus := watchfake.New()
	got := make(chan run.WatchMessage, 16)
	ended := make(chan error, 4)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchbus.Follow(ctx, bus, func(m run.WatchMessage) { got <- m },
			watchbus.Options{Ended: func(err error) { ended <- err }})
	}()
	defer func() { cancel(); <-done }()
	if m := <-got; m.Type != run.WatchSnapshotType {
		t.Fatalf("first message %q", m.Type)
	}
	if err := bus.WaitWatchers(ctx, 1); err != nil {
		t.Fatal(err)
	}
	bus.Goodbye("lagging")
	if m := <-got; m.Type != run.WatchGoodbye {
		t.Fatalf("after Goodbye got %q", m.Type)
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Fatalf("Ended(%v) after a goodbye, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ended was not called after the stream ended")
	}
	if m := <-got; m.Type != run.WatchSnapshotType {
		t.Fatalf("after the reconnect got %q, want a snapshot", m.Type)
	}
	if bus.Watches() != 2 {
		t.Fatalf("watches %d, want 2", bus.Watches())
	}
}
