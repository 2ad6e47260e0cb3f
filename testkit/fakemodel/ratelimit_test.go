package fakemodel

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/park"
)

// On demand every API answers 429 with the reset in its headers and body
// (which park reads as a rate limit with that reset); lifted, it answers.
func TestRateLimitUntil(t *testing.T) {
	s := Start(t)
	reset := time.Now().Add(90 * time.Second)
	s.RateLimitUntil(reset)
	for _, c := range []struct{ path, body, kind string }{
		{"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, "rate_limit_exceeded"},
		{"/v1/messages", `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`, "rate_limit_error"},
		{"/v1beta/models/m:generateContent", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, "RESOURCE_EXHAUSTED"},
	} {
		resp, err := http.Post(s.URL+c.path, "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		buf := make([]byte, 4096)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(b.String(), c.kind) {
			t.Fatalf("%s: %d %s", c.path, resp.StatusCode, b.String())
		}
		if ra, _ := strconv.Atoi(resp.Header.Get("Retry-After")); ra < 89 || ra > 90 {
			t.Errorf("%s: Retry-After %q", c.path, resp.Header.Get("Retry-After"))
		}
		if u := resp.Header.Get("Anthropic-Ratelimit-Unified-Reset"); u != strconv.FormatInt(reset.Unix(), 10) {
			t.Errorf("%s: unified reset %q", c.path, u)
		}
		if sig := park.FromText(b.String(), time.Now()); !sig.Limited || sig.ResetsAt.Unix() != reset.Unix() {
			t.Errorf("%s: park reads %+v from %s", c.path, sig, b.String())
		}
	}
	s.RateLimitUntil(time.Time{})
	if code, body := post(t, s.URL+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`); code != 200 {
		t.Fatalf("lifted: %d %s", code, body)
	}
}

// The next call starts the limit: it and the calls after it are refused
// until a whole second at least d after it, and no longer.
func TestRateLimitNextFor(t *testing.T) {
	s := Start(t)
	const chat = `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	s.RateLimitNextFor(time.Second)
	before := time.Now()
	code, body := post(t, s.URL+"/v1/chat/completions", chat)
	if code != http.StatusTooManyRequests {
		t.Fatalf("first call: %d %s", code, body)
	}
	sig := park.FromText(body, time.Now())
	if !sig.Limited || sig.ResetsAt.Before(before.Add(time.Second)) || sig.ResetsAt.After(time.Now().Add(2*time.Second)) || sig.ResetsAt.Nanosecond() != 0 {
		t.Fatalf("reset %v read from %s, want a whole second ≥ 1 s after the call", sig.ResetsAt, body)
	}
	if code, _ := post(t, s.URL+"/v1/chat/completions", chat); code != http.StatusTooManyRequests {
		t.Fatalf("second call before the reset: %d", code)
	}
	if got := s.limited(sig.ResetsAt); !got.IsZero() {
		t.Fatalf("still limited at the reset: until %v", got)
	}
}
