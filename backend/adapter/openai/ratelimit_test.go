package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/park"
	"github.com/hermesdesk/hermesdesk/testkit/fakemodel/agenttest"
)

// A 429 whose reset is only in its headers: the run's error says the
// reset, so the run waits for it rather than backing off blindly
// (docs/ARCHITECTURE.md §Usage, parked runs).
func TestRateLimitHeadersPark(t *testing.T) {
	reset := time.Now().Add(time.Hour).Truncate(time.Second).UTC()
	for _, tc := range []struct {
		name    string
		headers map[string]string
		action  park.Action
		wait    time.Duration // from the call; 0: the reset itself
	}{
		{"retry-after seconds", map[string]string{"Retry-After": "120"}, park.WaitForReset, 2 * time.Minute},
		{"retry-after as a date", map[string]string{"Retry-After": reset.Format(http.TimeFormat)}, park.WaitForReset, 0},
		{"openai's reset duration", map[string]string{"X-Ratelimit-Reset-Requests": "1m30s"}, park.WaitForReset, 90 * time.Second},
		{"no reset header: back off", nil, park.BackOff, time.Minute},
		{"a nonsense header: back off", map[string]string{"Retry-After": "soon, maybe"}, park.BackOff, time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if r.Method == http.MethodGet { // the model list, asked at start
					_, _ = w.Write([]byte(`{"data":[{"id":"m"}]}`))
					return
				}
				for k, v := range tc.headers {
					w.Header().Set(k, v)
				}
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(`{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`))
			}))
			defer srv.Close()
			c, err := New().Start(context.Background(), adapter.StartRequest{Config: adapter.Config{BaseURL: srv.URL, APIKey: "k"}}, adapter.Host{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			now := time.Now()
			res := c.Turn(context.Background(), adapter.TurnRequest{Message: "hi"}, agenttest.NewRecorder())
			if res.Err == nil {
				t.Fatal("a 429 is no error")
			}
			v := park.Decide(park.Ending{AgentFailed: true, Error: res.Err.Error(), Enabled: true, Now: now})
			want := reset
			if tc.wait != 0 {
				want = now.Add(tc.wait)
			}
			if v.Action != tc.action || v.ResumesAt.Sub(want).Abs() > 2*time.Second {
				t.Fatalf("from %q: verdict %+v, want %v at %v", res.Err, v, tc.action, want)
			}
		})
	}
}

func TestResetWordsOnlyOn429(t *testing.T) {
	if got := resetWords(http.StatusServiceUnavailable, http.Header{"Retry-After": {"5"}}); got != "" {
		t.Fatalf("a 503 is no rate limit: %q", got)
	}
}
