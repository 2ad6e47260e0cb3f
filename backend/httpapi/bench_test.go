package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// BenchmarkSSEFanout: b.N events appended as fast as possible to one run
// (in-memory journal) and streamed over real 127.0.0.1 HTTP to 1 and 50
// SSE watchers. Reports events/s each watcher receives and total frames/s.
func BenchmarkSSEFanout(b *testing.B) {
	for _, watchers := range []int{1, 50} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			e := newEnv(b, httpapi.Config{})
			e.mem.WatchBuffer = 4096
			e.mem.AddRun("r1")
			var wg sync.WaitGroup
			for range watchers {
				c := e.openSSE(b, context.Background(), "/api/runs/r1/events", nil)
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer c.close()
					// Count frames without decoding them: the client's JSON
					// work would otherwise dominate what is measured.
					n := 0
					for {
						line, err := c.br.ReadSlice('\n')
						if err != nil {
							b.Errorf("watcher: %v after %d events", err, n)
							return
						}
						if bytes.HasPrefix(line, []byte("id: ")) {
							n++
						}
						if bytes.HasPrefix(line, []byte("event: done")) {
							break
						}
					}
					if n != b.N {
						b.Errorf("watcher got %d events, want %d", n, b.N)
					}
				}()
			}
			waitFor(b, "watchers", func() bool { return e.mem.Watchers("r1") == watchers })
			payload := text("0123456789abcdef0123456789abcdef") // a typical token chunk
			b.ResetTimer()
			start := time.Now()
			for range b.N - 1 {
				e.mem.Append("r1", run.EventTokenDelta, payload)
			}
			e.mem.Append("r1", run.EventDone, run.Done{Status: run.StatusCompleted})
			wg.Wait()
			el := time.Since(start).Seconds()
			b.ReportMetric(float64(b.N)/el, "events/s/watcher")
			b.ReportMetric(float64(b.N*watchers)/el, "frames/s")
		})
	}
}

// BenchmarkSSELatency: events appended at a steady 2,000/s; the time from
// each append (the commit, in the in-memory journal) to its arrival at
// each of 1 and 50 SSE watchers. Reports p50 and p99 in µs.
func BenchmarkSSELatency(b *testing.B) {
	for _, watchers := range []int{1, 50} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			e := newEnv(b, httpapi.Config{})
			e.mem.AddRun("r1")
			n := max(b.N, 200)
			committed := make([]time.Time, n+2)
			var mu sync.Mutex
			var lat []time.Duration
			var wg sync.WaitGroup
			for range watchers {
				c := e.openSSE(b, context.Background(), "/api/runs/r1/events", nil)
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer c.close()
					local := make([]time.Duration, 0, n)
					for {
						f, err := c.next()
						if err != nil {
							break
						}
						if f.id == "" {
							continue
						}
						now := time.Now()
						var seq int
						fmt.Sscanf(f.id[len("r1:"):], "%d", &seq)
						mu.Lock()
						at := committed[seq]
						mu.Unlock()
						local = append(local, now.Sub(at))
						if f.event == "done" {
							break
						}
					}
					mu.Lock()
					lat = append(lat, local...)
					mu.Unlock()
				}()
			}
			waitFor(b, "watchers", func() bool { return e.mem.Watchers("r1") == watchers })
			b.ResetTimer()
			tick := time.NewTicker(500 * time.Microsecond)
			defer tick.Stop()
			for i := 1; i <= n; i++ {
				<-tick.C
				t := run.EventTokenDelta
				var p any = text("chunk")
				if i == n {
					t, p = run.EventDone, run.Done{Status: run.StatusCompleted}
				}
				mu.Lock()
				committed[i] = time.Now()
				mu.Unlock()
				e.mem.Append("r1", t, p)
			}
			wg.Wait()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
