package openai

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// resetWords says a refused call's reset headers in the words
// park.FromText reads, for the run's error: an OpenAI-compatible server's
// 429 often names its reset only in headers ("Rate limit reached for
// requests"), and without them the run would back off blindly instead of
// waiting for the reset (docs/ARCHITECTURE.md §Usage, parked runs).
// Retry-After (seconds or an HTTP date) first, then OpenAI's
// x-ratelimit-reset-requests / -tokens (a duration such as "1m30s").
func resetWords(status int, h http.Header) string {
	if status != http.StatusTooManyRequests {
		return ""
	}
	if ra := clip(h.Get("Retry-After")); ra != "" {
		if n, err := strconv.Atoi(ra); err == nil && n >= 0 {
			return " (retry-after: " + strconv.Itoa(n) + ")"
		}
		if t, err := http.ParseTime(ra); err == nil {
			return " (resets at " + t.UTC().Format(time.RFC3339) + ")"
		}
	}
	for _, k := range []string{"X-Ratelimit-Reset-Requests", "X-Ratelimit-Reset-Tokens"} {
		if v := clip(h.Get(k)); v != "" {
			if _, err := time.ParseDuration(v); err == nil {
				return " (" + strings.ToLower(k) + ": " + v + ")"
			}
		}
	}
	return ""
}

// clip keeps a header value short: it goes into an error message.
func clip(v string) string {
	v = strings.TrimSpace(v)
	if len(v) > 40 {
		return ""
	}
	return v
}
