package shim

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

func TestHubDropsSlowSubscriber(t *testing.T) {
	h := newHub(5)
	h.setLimit(2)
	fast, last, ok := h.add(0)
	if !ok || last != 5 {
		t.Fatalf("add = %v, %d", ok, last)
	}
	slow, _, _ := h.add(0)
	var fastGot []int64
	for seq := int64(4); seq <= 8; seq++ { // 4 and 5 are not newer than the subscription
		h.publish([]run.Event{{Seq: seq}})
		got, ended := drain(h, fast) // fast keeps up
		if ended {
			t.Fatalf("fast ended after seq %d", seq)
		}
		fastGot = append(fastGot, got...)
	}
	if fmt.Sprint(fastGot) != "[6 7 8]" {
		t.Fatalf("fast got %v", fastGot)
	}
	if !h.isDropped(slow) {
		t.Fatal("a subscriber with a full queue was not dropped")
	}
	slowGot, ended := drain(h, slow)
	if fmt.Sprint(slowGot) != "[6 7]" || !ended {
		t.Fatalf("slow kept %v (ended %v) before the drop, want [6 7] and ended", slowGot, ended)
	}
	if h.count() != 1 || h.last() != 8 {
		t.Fatalf("count %d last %d", h.count(), h.last())
	}
	h.close()
	if got, ended := drain(h, fast); len(got) != 0 || !ended {
		t.Fatalf("close left a subscription open (%v, ended %v)", got, ended)
	}
	if h.isDropped(fast) {
		t.Fatal("closing the hub is not a drop")
	}
	if _, _, ok := h.add(0); ok {
		t.Fatal("add after close")
	}
}

// A subscriber's queue grows with what it lags behind, not a buffer sized
// for the worst case up front (docs/ARCHITECTURE.md §Memory); a batch the
// reader hands back is reused, one left large by a burst is let go.
func TestHubQueueHoldsOnlyTheLag(t *testing.T) {
	h := newHub(0)
	s, _, _ := h.add(0) // holds no room up front: fanout's TestNewSubscriberHoldsNoRoom
	h.publish([]run.Event{{Seq: 1}, {Seq: 2}})
	<-s.Ready()
	batch, ended := h.take(s, nil)
	if len(batch) != 2 || ended {
		t.Fatalf("take = %v, %v", batch, ended)
	}
	h.publish([]run.Event{{Seq: 3}})
	next, _ := h.take(s, batch)
	h.publish([]run.Event{{Seq: 4}})
	again, _ := h.take(s, next)
	if len(next) != 1 || next[0].Seq != 3 || len(again) != 1 || again[0].Seq != 4 || &again[:1][0] != &batch[:1][0] {
		t.Fatalf("take did not reuse the batch handed back: %v, %v", next, again)
	}
	for seq := int64(5); seq < 1000; seq++ {
		h.publish([]run.Event{{Seq: seq}})
	}
	burst, _ := h.take(s, again)
	if len(burst) != 995 {
		t.Fatalf("burst of %d events", len(burst))
	}
	h.publish([]run.Event{{Seq: 1000}})
	after, _ := h.take(s, burst)
	if len(after) != 1 || cap(after) > 256 {
		t.Fatalf("after a burst the queue kept room for %d events", cap(after))
	}
}

// drain takes everything queued for s.
func drain(h *hub, s *subscriber) (seqs []int64, ended bool) {
	select {
	case <-s.Ready():
	default:
	}
	evs, ended := h.take(s, nil)
	for _, ev := range evs {
		seqs = append(seqs, ev.Seq)
	}
	return seqs, ended
}

// serverFixture serves a control socket with ctl on a hub.
func serverFixture(t *testing.T, ctl controller) (*server, *hub, control.Bootstrap) {
	t.Helper()
	dir, err := os.MkdirTemp("", "hds")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	h := newHub(0)
	sock := filepath.Join(dir, "c.sock")
	srv, err := listen(sock, "secret", oneHub(h), ctl, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srv.start(context.Background())
	t.Cleanup(func() { h.close(); srv.shutdown(0) })
	if st, _ := os.Stat(sock); st.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v", st.Mode())
	}
	return srv, h, control.Bootstrap{Socket: sock, Token: "secret"}
}

type ctlFunc func(context.Context, control.Request) control.Response

func (f ctlFunc) handle(ctx context.Context, r control.Request) control.Response { return f(ctx, r) }

func TestServerRequiresToken(t *testing.T) {
	var calls atomic.Int32 // the handler runs on the server's goroutine
	_, _, b := serverFixture(t, ctlFunc(func(context.Context, control.Request) control.Response {
		calls.Add(1)
		return control.Response{Result: &run.ControlResult{Status: run.ControlAccepted, Accepted: true}}
	}))
	bad := b
	bad.Token = "guess"
	if _, err := control.Call(context.Background(), bad, control.Request{Op: control.OpCancel}); !errors.Is(err, control.ErrRejected) {
		t.Fatalf("bad token: %v", err)
	}
	if _, err := control.Subscribe(context.Background(), bad, 0); !errors.Is(err, control.ErrRejected) {
		t.Fatalf("bad token subscribe: %v", err)
	}
	if calls.Load() != 0 {
		t.Fatal("a request with a bad token reached the controller")
	}
	resp, err := control.Call(context.Background(), b, control.Request{Op: control.OpCancel})
	if err != nil || !resp.Result.Accepted || calls.Load() != 1 {
		t.Fatalf("good token: %+v, %v", resp, err)
	}
}

func TestServerRejectsMalformedAndUnknown(t *testing.T) {
	_, _, b := serverFixture(t, ctlFunc(func(context.Context, control.Request) control.Response { return control.Response{} }))
	c, err := net.Dial("unix", b.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sc := bufio.NewScanner(c)
	read := func() control.Response {
		if !sc.Scan() {
			t.Fatalf("no answer: %v", sc.Err())
		}
		var r control.Response
		json.Unmarshal(sc.Bytes(), &r)
		return r
	}
	c.Write([]byte(`{"id":1,"token":"secret","op":"explode"}` + "\n"))
	if r := read(); r.Code != control.CodeBadRequest || r.ID != 1 {
		t.Fatalf("unknown op: %+v", r)
	}
	c.Write([]byte("garbage\n"))
	if r := read(); r.Code != control.CodeBadRequest {
		t.Fatalf("garbage: %+v", r)
	}
}

func TestServerStreamsCommittedEvents(t *testing.T) {
	_, h, b := serverFixture(t, ctlFunc(func(context.Context, control.Request) control.Response { return control.Response{} }))
	h.publish([]run.Event{{Seq: 1}, {Seq: 2}})
	sub, err := control.Subscribe(context.Background(), b, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if sub.LastSeq != 2 {
		t.Fatalf("ack %d: events 1..2 are the client's to read from the journal", sub.LastSeq)
	}
	h.publish([]run.Event{{Seq: 3}, {Seq: 4, Terminal: true}})
	for _, want := range []int64{3, 4} {
		ev, err := sub.Next()
		if err != nil || ev.Seq != want {
			t.Fatalf("Next = %d, %v; want %d", ev.Seq, err, want)
		}
	}
	h.close()
	if _, err := sub.Next(); !errors.Is(err, control.ErrEnded) {
		t.Fatalf("after the run: %v", err)
	}
}
