//go:build unix

package hosts_test

import (
	"context"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/hosts"
)

// One request to the host's API through the ssh-forwarded socket over the
// loopback link (a fresh connection each time, as a client after a
// reconnect), against the same request straight to the host's socket: the
// link's cost. Reports p50 and p99.
func BenchmarkHealthThroughLink(b *testing.B) {
	f := newFixture(b)
	ctx := ctxT(b)
	h, err := f.svc.Add(ctx, f.srv.Alias)
	if err != nil {
		b.Fatal(err)
	}
	states := make(chan hosts.LinkState, 16)
	l, err := f.svc.Connect(ctx, h.ID, func(s hosts.LinkState) { states <- s })
	if err != nil {
		b.Fatal(err)
	}
	wantState(b, states, true)
	remote, err := f.svc.Start(ctx, h.ID)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, sock string }{{"link", l.Socket()}, {"direct", remote}} {
		b.Run(c.name, func(b *testing.B) {
			client := &http.Client{Transport: &http.Transport{
				DisableKeepAlives: true,
				DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
					return (&net.Dialer{}).DialContext(ctx, "unix", c.sock)
				},
			}}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				t0 := time.Now()
				res, err := client.Get("http://host/api/health")
				if err != nil {
					b.Fatal(err)
				}
				res.Body.Close()
				lat = append(lat, time.Since(t0))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
