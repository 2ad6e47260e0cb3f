package supervisor

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// journalEvents is the one Store method stream's catch-up reads.
type journalEvents struct {
	Store
	evs []run.Event
}

func (j journalEvents) Events(_ context.Context, _ string, after int64, limit int) ([]run.Event, error) {
	var out []run.Event
	for _, ev := range j.evs {
		if ev.Seq > after && len(out) < limit {
			out = append(out, ev)
		}
	}
	return out, nil
}

// A shim streams only what it commits after the subscription; what it
// committed before (a fast agent that asks for approval before the
// supervisor subscribed, then waits) is read from the journal, or the
// watch bus would not hear of it until the next commit — for a run that
// waits for a person, never (the notification that never came, stop 31).
func TestStreamPublishesWhatTheShimCommittedBeforeTheSubscription(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "shim.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // the shim: three events committed, nothing new since
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		sc := bufio.NewScanner(c)
		sc.Scan()
		var req control.Request
		json.Unmarshal(sc.Bytes(), &req)
		line, _ := json.Marshal(control.Response{ID: req.ID, Subscribed: &control.Subscribed{LastSeq: 3}})
		c.Write(append(line, '\n'))
		sc.Scan() // holds the stream open until the client goes
	}()
	committed := []run.Event{
		{RunID: "r", Seq: 1, Type: run.EventRunStarted},
		{RunID: "r", Seq: 2, Type: run.EventStatus},
		{RunID: "r", Seq: 3, Type: run.EventApprovalRequest},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &Supervisor{cfg: Config{Store: journalEvents{evs: committed}, ControlTimeout: 5 * time.Second},
		log: slog.New(slog.DiscardHandler), ctx: ctx}
	tapped := make(chan run.Event, 10)
	h := &runHub{tap: func(ev run.Event) { tapped <- ev }}
	go s.stream(h, control.Bootstrap{RunID: "r", Socket: sock})
	for want := int64(1); want <= 3; want++ {
		select {
		case ev := <-tapped:
			if ev.Seq != want {
				t.Fatalf("tapped seq %d, want %d", ev.Seq, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the tap never heard of seq %d (committed before the subscription)", want)
		}
	}
}
