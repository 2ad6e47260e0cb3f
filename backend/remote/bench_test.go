//go:build unix

package remote

import (
	"context"
	"slices"
	"testing"
	"time"
)

// BenchmarkEventToFollower: an event committed on the host (its
// created_at, stamped as the shim emits it, just before the commit) →
// stored by the local follower, over the relay (the SSH forward's
// stand-in): the doorbell, then a page read. Prints p50/p99.
//
//	go test -tags sqlite_fts5 -run '^$' -bench EventToFollower ./backend/remote/
func BenchmarkEventToFollower(b *testing.B) {
	rc := startRemoteCore(b)
	link := newRelay(b, "h1", rc.socket)
	sink := newMemSink()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go New(link, sink, Options{Log: quiet}).Run(ctx)
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		res := rc.startRun(b, "/scenario trickle")
		for {
			ev := <-sink.stored
			if ev.RunID != res.RunID {
				continue
			}
			at := time.Unix(0, int64(ev.CreatedAt*1e9))
			lat = append(lat, time.Since(at))
			if ev.Terminal {
				break
			}
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	p := func(q float64) float64 {
		return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(p(0.50), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
	b.Logf("%d events: p50 %.2f ms, p99 %.2f ms", len(lat), p(0.50), p(0.99))
}
