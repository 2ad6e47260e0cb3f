package supervisor_test

import (
	"context"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// BenchmarkFloodEventsPerSecond: how many events per second one shim
// sustains from a flooding agent (the `flood` scenario, ~100k token
// deltas) into the journal, start to terminal event.
func BenchmarkFloodEventsPerSecond(b *testing.B) {
	e := newEnv(b)
	var events int64
	var elapsed time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		res := e.start(e.session.ID, "/scenario flood")
		r := e.waitTerminalFor(res.RunID, 5*time.Minute)
		elapsed += time.Since(t0)
		if r.Status != run.StatusCompleted {
			b.Fatalf("flood run ended %s: %s", r.Status, r.Error)
		}
		events += r.LastSeq
	}
	b.ReportMetric(float64(events)/elapsed.Seconds(), "events/s")
	b.ReportMetric(float64(events)/float64(b.N), "events/run")
}

// BenchmarkStartToFirstEvent: from Start to the first event an observer
// receives (run.started, written by the shim), and to the first event the
// agent itself produced (the demo agent's first frame, after the ACP
// initialize/session/prompt handshake).
func BenchmarkStartToFirstEvent(b *testing.B) {
	// A new session per run is always cold; warm agents off so that the
	// benchmark does not leave a warm shim per iteration behind.
	e := newEnv(b, func(c *supervisor.Config) { c.MaxConcurrent, c.WarmIdle = 1, -1 })
	var first, agent time.Duration
	for i := 0; i < b.N; i++ {
		ses := e.newSession()
		t0 := time.Now()
		res := e.start(ses.ID, "hello")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		ch, err := e.sup.Watch(ctx, res.RunID, 0)
		if err != nil {
			b.Fatal(err)
		}
		gotFirst := false
		for ev := range ch {
			if !gotFirst {
				first += time.Since(t0)
				gotFirst = true
			}
			if fromAgent(ev.Type) {
				agent += time.Since(t0)
				break
			}
		}
		cancel()
		for range ch {
		}
		e.waitTerminalFor(res.RunID, time.Minute)
	}
	b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "ms-to-first-event")
	b.ReportMetric(float64(agent.Microseconds())/1000/float64(b.N), "ms-to-first-agent-event")
}

// fromAgent: event types the shim writes itself are not the agent's.
func fromAgent(t run.EventType) bool {
	switch t {
	case run.EventRunStarted, run.EventMessageUser, run.EventStatus:
		return false
	}
	return true
}

// BenchmarkWarmStartToFirstEvent: from Start of a session's next run to
// the first event its agent produced, with a fresh shim that resumes the
// agent's session (cold: warm agents off) and with the session's warm
// shim (warm).
func BenchmarkWarmStartToFirstEvent(b *testing.B) {
	for _, bc := range []struct {
		name string
		idle time.Duration
	}{{"cold", -1}, {"warm", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			e := newEnv(b, func(c *supervisor.Config) { c.WarmIdle = bc.idle })
			prime := e.start(e.session.ID, "hello")
			e.waitTerminalFor(prime.RunID, time.Minute)
			var agent time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				res := e.start(e.session.ID, "hello")
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				ch, err := e.sup.Watch(ctx, res.RunID, 0)
				if err != nil {
					b.Fatal(err)
				}
				for ev := range ch {
					if fromAgent(ev.Type) {
						agent += time.Since(t0)
						break
					}
				}
				cancel()
				for range ch {
				}
				if r := e.waitTerminalFor(res.RunID, time.Minute); r.Status != run.StatusCompleted {
					b.Fatalf("run ended %s: %s", r.Status, r.Error)
				}
			}
			b.ReportMetric(float64(agent.Microseconds())/1000/float64(b.N), "ms-to-first-agent-event")
		})
	}
}
