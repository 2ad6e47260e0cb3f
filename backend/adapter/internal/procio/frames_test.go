package procio

import (
	"errors"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

func TestReadJSONLines(t *testing.T) {
	huge := "{" + strings.Repeat("x", MaxLine) + "}"
	in := "banner\n\n{\"a\":1}\r\n" + huge + "\n[1]\n{\"b\":2}"
	var got []string
	skips := 0
	ReadJSONLines(strings.NewReader(in), func() { skips++ }, func(l []byte) { got = append(got, string(l)) })
	if strings.Join(got, " ") != `{"a":1} {"b":2}` || skips != 1 {
		t.Fatalf("lines %q, skipped %d", got, skips)
	}
}

// fakeProc is an adapter.Proc made of function fields.
type fakeProc struct {
	adapter.Proc
	wait func() (int, error)
}

func (p fakeProc) Wait() (int, error) { return p.wait() }

func TestExitedResult(t *testing.T) {
	exited := fakeProc{wait: func() (int, error) { return 3, nil }}
	unknown := fakeProc{wait: func() (int, error) { return 0, errors.New("not reaped") }}
	tests := []struct {
		name      string
		p         fakeProc
		cancelled bool
		wantErr   error
		wantCode  *int
	}{
		{"died", exited, false, adapter.ErrAgentExited, ptr(3)},
		{"cancelled", exited, true, nil, ptr(3)},
		{"no code", unknown, false, adapter.ErrAgentExited, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ExitedResult(tt.p, tt.cancelled)
			if !errors.Is(r.Err, tt.wantErr) || (tt.wantErr == nil && r.Err != nil) || r.Cancelled != tt.cancelled || r.StopReason != "exited" {
				t.Fatalf("%+v", r)
			}
			if (r.ExitCode == nil) != (tt.wantCode == nil) || (r.ExitCode != nil && *r.ExitCode != *tt.wantCode) {
				t.Fatalf("exit code %v, want %v", r.ExitCode, tt.wantCode)
			}
		})
	}
}

func ptr(i int) *int { return &i }

func TestWaiters(t *testing.T) {
	var w Waiters[int64, string]
	ch := w.Add(1)
	w.Add(2)
	w.Drop(2)
	if w.Deliver(2, "late") {
		t.Fatal("delivered to a dropped waiter")
	}
	if !w.Deliver(1, "ok") || <-ch != "ok" {
		t.Fatal("waiter 1 got nothing")
	}
	if w.Deliver(1, "again") {
		t.Fatal("delivered twice")
	}
}
