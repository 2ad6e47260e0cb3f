//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// openStream opens an SSE stream of a run from its start.
func (s *server) openStream(b *testing.B, runID string) *bufio.Reader {
	req, _ := http.NewRequest("GET", s.url+"/api/runs/"+runID+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		b.Fatalf("open stream: %v %v", res, err)
	}
	b.Cleanup(func() { res.Body.Close() })
	return bufio.NewReaderSize(res.Body, 64<<10)
}

// BenchmarkE2EFlood: the `flood` scenario (100k chunks) of the fake agent
// through shim → journal → supervisor → SSE to 1 and 50 watchers over
// 127.0.0.1. Reports the events/s each watcher receives end to end (the
// producer side — agent, shim, group commit — bounds it).
func BenchmarkE2EFlood(b *testing.B) {
	for _, watchers := range []int{1, 50} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			dataDir := newDataDir(b)
			srv := startServe(b, dataDir)
			defer srv.stop()
			c := httpapi.NewClient(srv.url, srv.token)
			for range b.N {
				res := srv.startRun(b, c, "/scenario flood")
				var wg sync.WaitGroup
				counts := make([]int, watchers)
				start := time.Now()
				for i := range watchers {
					br := srv.openStream(b, res.RunID)
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							line, err := br.ReadSlice('\n')
							if err != nil {
								b.Errorf("watcher %d: %v after %d", i, err, counts[i])
								return
							}
							if bytes.HasPrefix(line, []byte("id: ")) {
								counts[i]++
							}
							if bytes.HasPrefix(line, []byte("event: done")) {
								return
							}
						}
					}()
				}
				wg.Wait()
				el := time.Since(start).Seconds()
				b.ReportMetric(float64(counts[0])/el, "events/s/watcher")
				b.ReportMetric(float64(counts[0]*watchers)/el, "frames/s")
			}
		})
	}
}

// BenchmarkE2ELatency: demo-scenario runs (~45 events, paced by the
// agent) watched by 1 and 50 SSE clients; for every event produced after
// its watcher connected, the time from the shim stamping it (created_at,
// just before its group commit) to its arrival. Reports p50/p99 in µs.
func BenchmarkE2ELatency(b *testing.B) {
	for _, watchers := range []int{1, 50} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			dataDir := newDataDir(b)
			srv := startServe(b, dataDir)
			defer srv.stop()
			c := httpapi.NewClient(srv.url, srv.token)
			var mu sync.Mutex
			var lat []time.Duration
			for range max(b.N, 5) {
				res := srv.startRun(b, c, "/scenario demo")
				var wg sync.WaitGroup
				for range watchers {
					connected := run.UnixSeconds(time.Now())
					wg.Add(1)
					go func() {
						defer wg.Done()
						var local []time.Duration
						err := c.Follow(context.Background(), res.RunID, 0, func(ev run.Event) error {
							if ev.CreatedAt > connected {
								local = append(local, time.Since(time.Unix(0, int64(ev.CreatedAt*1e9))))
							}
							return nil
						})
						if err != nil {
							b.Error(err)
						}
						mu.Lock()
						lat = append(lat, local...)
						mu.Unlock()
					}()
				}
				wg.Wait()
			}
			if len(lat) == 0 {
				b.Fatal("no live events measured")
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(len(lat)), "samples")
		})
	}
}

// BenchmarkDoorbellLatency: the window's live path (docs/ARCHITECTURE.md
// "The watch bus"): demo-scenario runs with 1 and 20 active at once (the
// supervisor runs 4 at a time, the rest queued), watched through
// GET /api/watch?doorbells=1 as the window's core connection does. For
// every doorbell, the time from the shim stamping the event it names
// (created_at, just before its commit) to the doorbell's arrival; the
// doorbells are coalesced per run per frame (16 ms) as the window gets
// them. Reports p50/p99 in µs.
func BenchmarkDoorbellLatency(b *testing.B) {
	for _, active := range []int{1, 20} {
		b.Run(fmt.Sprintf("active=%d", active), func(b *testing.B) {
			dataDir := newDataDir(b)
			srv := startServe(b, dataDir)
			defer srv.stop()
			c := httpapi.NewClient(srv.url, srv.token)
			type bell struct {
				run string
				seq int64
				at  time.Time
			}
			var lat []time.Duration
			for range max(b.N, 1) {
				ctx, cancel := context.WithCancel(context.Background())
				ch, err := c.Watch(ctx, true)
				if err != nil {
					b.Fatal(err)
				}
				var bells []bell
				got := make(chan struct{})
				go func() {
					defer close(got)
					for m := range ch {
						if m.Type == run.WatchDoorbell {
							bells = append(bells, bell{m.Run.RunID, m.Run.LastSeq, time.Now()})
						}
					}
				}()
				var ids []string
				for range active {
					ids = append(ids, srv.startRun(b, c, "/scenario demo").RunID)
				}
				for _, id := range ids {
					if err := c.Follow(context.Background(), id, 0, func(run.Event) error { return nil }); err != nil {
						b.Fatal(err)
					}
				}
				time.Sleep(50 * time.Millisecond) // the last doorbells
				cancel()
				<-got
				stamps := map[string]map[int64]time.Time{}
				for _, id := range ids {
					var page struct{ Events []run.Event }
					if err := c.Call(context.Background(), "GET", "/api/runs/"+id+"/events?after=0&limit=5000", nil, &page); err != nil {
						b.Fatal(err)
					}
					stamps[id] = map[int64]time.Time{}
					for _, ev := range page.Events {
						stamps[id][ev.Seq] = time.Unix(0, int64(ev.CreatedAt*1e9))
					}
				}
				for _, bl := range bells {
					if at, ok := stamps[bl.run][bl.seq]; ok {
						lat = append(lat, bl.at.Sub(at))
					}
				}
			}
			if len(lat) == 0 {
				b.Fatal("no doorbells")
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(len(lat)), "doorbells")
		})
	}
}
