package fakemodel

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
)

// RateLimitUntil makes every model call answer HTTP 429 until t, in the
// API's own error shape and with the reset headers real servers send
// (Retry-After in seconds, OpenAI's x-ratelimit-reset-requests as a
// duration, Anthropic's anthropic-ratelimit-unified-reset in unix seconds
// and -status "rejected"): a quota that runs out on demand and resets by
// itself (docs/ARCHITECTURE.md §Usage, parked runs). A zero t lifts it.
func (s *Server) RateLimitUntil(t time.Time) {
	s.mu.Lock()
	s.limitedUntil = t
	s.mu.Unlock()
}

// RateLimitNextFor makes the next model call start a limit of d: it and
// every call after it answer 429 until then, the reset a whole second (the
// body names it in RFC 3339, whole seconds: a reset read from it is not
// early). However long an agent takes to start, its call is refused and
// the reset is still d ahead of it: a run through the product parks
// without a race (test/agents park_test.go).
func (s *Server) RateLimitNextFor(d time.Duration) {
	s.mu.Lock()
	s.limitNext = d
	s.mu.Unlock()
}

// limited is the reset of the limit in force now (zero: none).
func (s *Server) limited(now time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limitNext > 0 {
		s.limitedUntil = now.Add(s.limitNext).Truncate(time.Second).Add(time.Second)
		s.limitNext = 0
	}
	if now.Before(s.limitedUntil) {
		return s.limitedUntil
	}
	return time.Time{}
}

// writeRateLimited answers a model call refused until reset.
func writeRateLimited(w http.ResponseWriter, api string, reset, now time.Time) {
	wait := reset.Sub(now)
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	h.Set("X-Ratelimit-Reset-Requests", wait.Round(time.Millisecond).String())
	h.Set("X-Ratelimit-Remaining-Requests", "0")
	h.Set("Anthropic-Ratelimit-Unified-Status", "rejected")
	h.Set("Anthropic-Ratelimit-Unified-Reset", strconv.FormatInt(reset.Unix(), 10))
	msg := fmt.Sprintf("fake model: rate limit reached; resets at %s", reset.UTC().Format(time.RFC3339))
	var body any
	switch api {
	case "anthropic":
		body = map[string]any{"type": "error", "error": map[string]any{"type": "rate_limit_error", "message": msg}}
	case "gemini":
		body = map[string]any{"error": map[string]any{"code": 429, "message": msg, "status": "RESOURCE_EXHAUSTED"}}
	default:
		body = map[string]any{"error": map[string]any{"message": msg, "type": "requests", "code": "rate_limit_exceeded"}}
	}
	writeJSON(w, http.StatusTooManyRequests, body)
}
