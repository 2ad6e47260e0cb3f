package control

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// scriptedServer answers each connection with the lines answer returns for
// the request it read.
func scriptedServer(t *testing.T, answer func(Request) []Response) Bootstrap {
	t.Helper()
	dir, err := os.MkdirTemp("", "hdc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				sc := bufio.NewScanner(c)
				if !sc.Scan() {
					return
				}
				var req Request
				json.Unmarshal(sc.Bytes(), &req)
				for _, r := range answer(req) {
					b, _ := json.Marshal(r)
					c.Write(append(b, '\n'))
				}
			}()
		}
	}()
	return Bootstrap{Socket: sock, Token: "tok"}
}

func TestCall(t *testing.T) {
	seen := make(chan Request, 1) // the server runs on its own goroutine
	b := scriptedServer(t, func(r Request) []Response {
		seen <- r
		return []Response{{ID: r.ID, Result: &run.ControlResult{Accepted: true, Status: run.ControlAccepted, EventID: "r:3"}}}
	})
	resp, err := Call(context.Background(), b, Request{Op: OpCancel})
	if err != nil || resp.Result == nil || resp.Result.EventID != "r:3" {
		t.Fatalf("Call = %+v, %v", resp, err)
	}
	got := <-seen
	if got.Token != "tok" || got.Op != OpCancel || got.ID == 0 {
		t.Fatalf("server saw %+v", got)
	}
}

func TestCallErrors(t *testing.T) {
	b := scriptedServer(t, func(r Request) []Response {
		return []Response{{ID: r.ID, Code: CodeUnauthorized, Error: "bad token"}}
	})
	if _, err := Call(context.Background(), b, Request{Op: OpStatus}); !errors.Is(err, ErrRejected) {
		t.Fatalf("rejected: %v", err)
	}
	gone := Bootstrap{Socket: filepath.Join(t.TempDir(), "nobody"), Token: "x"}
	if _, err := Call(context.Background(), gone, Request{Op: OpStatus}); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("no socket: %v", err)
	}
	silent := scriptedServer(t, func(Request) []Response { time.Sleep(time.Second); return nil })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Call(ctx, silent, Request{Op: OpStatus}); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("silent shim: %v", err)
	}
}

func TestSubscribe(t *testing.T) {
	b := scriptedServer(t, func(r Request) []Response {
		if r.Op != OpSubscribe || r.AfterSeq != 4 {
			return []Response{{Code: CodeBadRequest, Error: "bad"}}
		}
		return []Response{
			{ID: r.ID, Subscribed: &Subscribed{LastSeq: 6}},
			{Event: &run.Event{Seq: 7}},
			{Event: &run.Event{Seq: 8}},
			{Code: CodeDropped, Error: "behind"},
		}
	})
	sub, err := Subscribe(context.Background(), b, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if sub.LastSeq != 6 {
		t.Fatalf("ack last seq %d", sub.LastSeq)
	}
	for _, want := range []int64{7, 8} {
		ev, err := sub.Next()
		if err != nil || ev.Seq != want {
			t.Fatalf("Next = %d, %v; want %d", ev.Seq, err, want)
		}
	}
	if _, err := sub.Next(); !errors.Is(err, ErrDropped) {
		t.Fatalf("after the drop: %v", err)
	}
}
