//go:build linux

package hosts_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/apihost"
	"github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/sshd"
)

// BenchmarkHostEventToLocalBus: an event committed on the host (its
// created_at) → its doorbell on this machine's watch bus (what the
// window's session view wakes on), over the loopback SSH link, through
// the local supervisor as it is wired (apihost: Keep, the Follower,
// PublishRemote). Prints p50/p99.
//
//	go test -tags sqlite_fts5 -run '^$' -bench HostEventToLocalBus ./backend/hosts/
func BenchmarkHostEventToLocalBus(b *testing.B) {
	srv := sshd.Start(b)
	bin := buildApp(b)
	b.Cleanup(func() { stopHostCore(srv) })
	dir, err := os.MkdirTemp("", "hd-bench-")
	if err != nil {
		b.Fatal(err)
	}
	rt, err := os.MkdirTemp("", "hr")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir); os.RemoveAll(rt) })
	b.Setenv("XDG_RUNTIME_DIR", rt)
	b.Setenv(hosts.EnvSSHConfig, srv.ConfigFile)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	core, err := apihost.Open(ctx, apihost.Options{DataDir: dir, Executable: bin, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer core.Close()
	api := httpapi.NewLocalClient(httpapi.SocketPath(dir))
	ch, err := api.Watch(ctx, true)
	if err != nil {
		b.Fatal(err)
	}
	var h hosts.Host
	if err := api.Call(ctx, "POST", "/api/hosts", service.AddHostRequest{Target: srv.Alias}, &h); err != nil {
		b.Fatal(err)
	}
	for m := range ch {
		if m.Type == run.WatchHostChanged && m.HostState.Host == h.ID && m.HostState.Reachable {
			break
		}
	}
	on := "/api/hosts/" + h.ID
	ws := filepath.Join(srv.RemoteHome, "bench")
	os.MkdirAll(ws, 0o700)
	var p run.Project
	if err := api.Call(ctx, "POST", on+"/projects", service.CreateProjectRequest{Workspace: ws}, &p); err != nil {
		b.Fatal(err)
	}
	var ses run.Session
	if err := api.Call(ctx, "POST", on+"/sessions", service.CreateSessionRequest{ProjectID: p.ID, Agent: "demo"}, &ses); err != nil {
		b.Fatal(err)
	}
	type rung struct {
		seq int64
		at  time.Time
	}
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		var res run.StartResult
		req := run.StartRequest{SessionID: ses.ID, Message: "/scenario tool", ClientRequestID: service.NewRequestID()}
		if err := api.Call(ctx, "POST", on+"/runs", req, &res); err != nil {
			b.Fatal(err)
		}
		var rings []rung
		for m := range ch {
			if m.Run == nil || m.Run.RunID != res.RunID {
				continue
			}
			if m.Type == run.WatchDoorbell {
				rings = append(rings, rung{m.Run.LastSeq, time.Now()})
			}
			if m.Type == run.WatchRunChanged && m.Run.Status.Terminal() {
				break
			}
		}
		// Each event's commit time on the host, read afterwards: the
		// latency of an event is until the first doorbell that covers it.
		var page service.EventPage
		if err := api.Call(ctx, "GET", on+"/runs/"+res.RunID+"/events?after=0&limit=1000", nil, &page); err != nil {
			b.Fatal(err)
		}
		i := 0
		for _, ev := range page.Events {
			for i < len(rings) && rings[i].seq < ev.Seq {
				i++
			}
			if i == len(rings) {
				break // told by the run's end, not a doorbell
			}
			lat = append(lat, rings[i].at.Sub(time.Unix(0, int64(ev.CreatedAt*1e9))))
		}
	}
	b.StopTimer()
	if len(lat) == 0 {
		b.Fatal("no doorbell reached the local bus")
	}
	slices.Sort(lat)
	pct := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.Logf("%d events: p50 %.2f ms, p99 %.2f ms", len(lat), pct(0.50), pct(0.99))
}
