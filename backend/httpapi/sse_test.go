package httpapi_test

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
)

// A client whose connection drops reconnects with Last-Event-ID and gets
// exactly the remaining events, live ones included, then the stream ends
// after `done`.
func TestSSEReconnectWithLastEventID(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	e.mem.AddRun("r1")
	for range 10 {
		e.mem.Append("r1", run.EventTokenDelta, text("a"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := e.openSSE(t, ctx, "/api/runs/r1/events", nil)
	seqs, err := c.events(t, 4)
	if err != nil {
		t.Fatal(err)
	}
	gapless(t, seqs, 1, 4)
	cancel() // the connection drops mid-stream
	c.close()
	waitFor(t, "the dropped watcher to go away", func() bool { return e.mem.Watchers("r1") == 0 })
	if r, _ := e.mem.GetRun(context.Background(), "r1"); r.Terminal {
		t.Fatal("a dropped client ended the run")
	}
	for range 5 {
		e.mem.Append("r1", run.EventTokenDelta, text("b"))
	}
	c = e.openSSE(t, context.Background(), "/api/runs/r1/events", map[string]string{"Last-Event-ID": "r1:4"})
	defer c.close()
	got := make(chan []int64, 1)
	go func() {
		s, err := c.events(t, 1000)
		if err != nil {
			t.Error(err)
		}
		got <- s
	}()
	waitFor(t, "the reconnected watcher", func() bool { return e.mem.Watchers("r1") == 1 })
	for range 5 {
		e.mem.Append("r1", run.EventTokenDelta, text("c"))
	}
	e.mem.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	gapless(t, <-got, 5, 21)
	if _, err := c.next(); err != io.EOF {
		t.Fatalf("stream did not end after done: %v", err)
	}
}

func TestSSEQueryCursorWinsAndFinishedRunReplays(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	e.mem.AddRun("r1")
	for range 6 {
		e.mem.Append("r1", run.EventTokenDelta, text("a"))
	}
	e.mem.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	tests := []struct {
		name  string
		path  string
		hdr   map[string]string
		first int64
	}{
		{"from start", "/api/runs/r1/events", nil, 1},
		{"after query", "/api/runs/r1/events?after=3", nil, 4},
		{"query wins over header", "/api/runs/r1/events?after=5", map[string]string{"Last-Event-ID": "r1:2"}, 6},
		{"header alone", "/api/runs/r1/events", map[string]string{"Last-Event-ID": "r1:2"}, 3},
		{"foreign id replays all", "/api/runs/r1/events", map[string]string{"Last-Event-ID": "r2:5"}, 1},
		{"garbage replays all", "/api/runs/r1/events?after=zz", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := e.openSSE(t, context.Background(), tt.path, tt.hdr)
			defer c.close()
			seqs, err := c.events(t, 100)
			if err != nil {
				t.Fatal(err)
			}
			gapless(t, seqs, tt.first, 7)
			if _, err := c.next(); err != io.EOF {
				t.Fatalf("finished run's stream did not end: %v", err)
			}
		})
	}
}

// Fifty watchers of one flooding run each receive the identical gapless
// sequence, and none of them slows the producer down to a stop.
func TestSSEFiftyWatchersOfAFlood(t *testing.T) {
	const watchers, flood = 50, 2000
	e := newEnv(t, httpapi.Config{})
	e.mem.AddRun("r1")
	e.mem.Append("r1", run.EventRunStarted, run.RunStarted{Agent: "demo"})
	results := make([][]int64, watchers)
	var wg sync.WaitGroup
	for i := range watchers {
		c := e.openSSE(t, context.Background(), "/api/runs/r1/events", nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.close()
			s, err := c.events(t, flood+10)
			if err != nil {
				t.Errorf("watcher %d: %v", i, err)
			}
			results[i] = s
		}()
	}
	waitFor(t, "all watchers subscribed", func() bool { return e.mem.Watchers("r1") == watchers })
	for i := range flood {
		e.mem.Append("r1", run.EventTokenDelta, text(string(rune('a'+i%26))))
	}
	e.mem.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
	wg.Wait()
	for i, s := range results {
		if t.Failed() {
			break
		}
		t.Run("watcher", func(t *testing.T) {
			if len(s) != flood+2 {
				t.Fatalf("watcher %d got %d events", i, len(s))
			}
			gapless(t, s, 1, flood+2)
		})
	}
}

func TestSSEHeartbeat(t *testing.T) {
	e := newEnv(t, httpapi.Config{Heartbeat: 5 * time.Millisecond})
	e.mem.AddRun("quiet")
	c := e.openSSE(t, context.Background(), "/api/runs/quiet/events", nil)
	defer c.close()
	for {
		f, err := c.next()
		if err != nil {
			t.Fatal(err)
		}
		if f.comment {
			return
		}
	}
}

// A watcher that stays behind the live stream longer than the lag budget
// is closed with a final message naming the id to resume from.
func TestSSETooSlowGetsFinalMessage(t *testing.T) {
	// The first stream skips seq 2, as a fan-out that dropped us would: the
	// watcher falls behind and subscribes again from its cursor (the
	// Runner's Watch catches it up from the journal), and with a zero lag
	// budget it is cut after its first caught-up event.
	var calls atomic.Int32
	e := newEnvWith(t, httpapi.Config{}, service.Options{Follow: service.FollowOptions{PageSize: 1, LagTimeout: time.Nanosecond}},
		func(m *servicetest.Mem, ctx context.Context, runID string, after int64) (<-chan run.Event, error) {
			evs, _ := m.Events(ctx, runID, after, 100)
			ch := make(chan run.Event, len(evs))
			first := calls.Add(1) == 1
			for _, ev := range evs {
				if ev.Seq != 2 || !first {
					ch <- ev
				}
			}
			close(ch)
			return ch, nil
		})
	e.mem.AddRun("r1")
	for range 5 {
		e.mem.Append("r1", run.EventTokenDelta, text("a"))
	}
	c := e.openSSE(t, context.Background(), "/api/runs/r1/events", nil)
	defer c.close()
	seqs, err := c.events(t, 2)
	if err != nil {
		t.Fatal(err)
	}
	gapless(t, seqs, 1, 2)
	f, err := c.next()
	if err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Code        string `json:"code"`
		Message     string `json:"message"`
		LastEventID string `json:"last_event_id"`
	}
	mustJSON(t, f.data, &msg)
	if f.event != "error" || msg.Code != "too_slow" || msg.LastEventID != "r1:2" || msg.Message == "" {
		t.Fatalf("final frame = %+v", f)
	}
	if _, err := c.next(); err != io.EOF {
		t.Fatalf("stream not closed after the final message: %v", err)
	}
}
