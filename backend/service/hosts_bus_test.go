package service_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// fakeHosts is a stored host list (backend/hosts.Service without ssh).
type fakeHosts struct {
	list    []hosts.Host
	removed []string
}

func (f *fakeHosts) Add(context.Context, string) (hosts.Host, error) { return hosts.Host{}, nil }
func (f *fakeHosts) List(context.Context) ([]hosts.Host, error)      { return slices.Clone(f.list), nil }
func (f *fakeHosts) Remove(_ context.Context, id string) error {
	f.removed = append(f.removed, id)
	f.list = slices.DeleteFunc(f.list, func(h hosts.Host) bool { return h.ID == id })
	return nil
}

// One message for a host (docs/ARCHITECTURE.md §Hosts): host.changed
// carries its record when stored, added or changed, its reachability from
// the follower (the record kept), and its removal; the snapshot holds the
// hosts as the stream left them.
func TestHostChangedCarriesRecordAndReachability(t *testing.T) {
	s, _, _ := busWorld(t, service.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	added := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	a := hosts.Host{ID: "host_a", Target: "me@a", Status: hosts.StatusReady, AddedAt: added}
	f := &fakeHosts{list: []hosts.Host{a}}
	s.SetHosts(f)
	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m := next(t, ch); len(m.Snapshot.Hosts) != 1 || m.Snapshot.Hosts[0].Record == nil || m.Snapshot.Hosts[0].Record.Target != "me@a" {
		t.Fatalf("snapshot's hosts %+v", m.Snapshot.Hosts)
	}
	type told struct {
		host, target string
		reachable    bool
		removed      bool
	}
	got := func() told {
		t.Helper()
		m := next(t, ch)
		if m.Type != run.WatchHostChanged {
			t.Fatalf("got %s, want host.changed", m.Type)
		}
		h := m.HostState
		tl := told{host: h.Host, reachable: h.Reachable, removed: h.Removed}
		if h.Record != nil {
			tl.target = h.Record.Target
		}
		return tl
	}
	steps := []struct {
		name string
		do   func()
		want []told
	}{
		{"reached", func() {
			s.PublishRemote("host_a", run.WatchMessage{Type: run.WatchHostChanged, HostState: &run.HostState{Reachable: true, Since: added}})
		}, []told{{"host_a", "me@a", true, false}}},
		{"its record changed, another added", func() {
			a.Status = hosts.StatusRunning
			f.list = []hosts.Host{a, {ID: "host_b", Target: "me@b", AddedAt: added}}
			s.HostsChanged()
		}, []told{{"host_a", "me@a", true, false}, {"host_b", "me@b", false, false}}},
		{"nothing moved", func() { s.HostsChanged() }, nil},
		{"removed", func() {
			f.list = f.list[1:]
			s.HostsChanged()
		}, []told{{"host_a", "", false, true}}},
	}
	for _, st := range steps {
		st.do()
		for _, w := range st.want {
			if g := got(); g != w {
				t.Fatalf("%s: told %+v, want %+v", st.name, g, w)
			}
		}
	}
	snap, _ := s.Snapshot(ctx)
	if hs := snap.Snapshot.Hosts; len(hs) != 1 || hs[0].Host != "host_b" {
		t.Fatalf("snapshot's hosts after the removal %+v", hs)
	}
}

// A host with runs going there (as this side last heard) is not removed:
// the sentence says so and the manager is not asked.
func TestRemoveHostRefusedWhileItsRunsGoOn(t *testing.T) {
	s, _, _ := busWorld(t, service.Options{})
	ctx := context.Background()
	f := &fakeHosts{list: []hosts.Host{{ID: "host_a", Target: "me@a"}}}
	s.SetHosts(f)
	s.PublishRemote("host_a", run.WatchMessage{Type: run.WatchRunChanged, Run: &run.RunState{RunID: "r1", SessionID: "s1", Status: run.StatusRunning, CreatedAt: time.Now()}})
	err := s.RemoveHost(ctx, "host_a")
	var se *service.Error
	if !errors.As(err, &se) || se.Code != service.CodeConflict || se.Message == "" || len(f.removed) != 0 {
		t.Fatalf("remove with a run going: %v (removed %v)", err, f.removed)
	}
	s.PublishRemote("host_a", run.WatchMessage{Type: run.WatchRunChanged, Run: &run.RunState{RunID: "r1", SessionID: "s1", Status: run.StatusCompleted, CreatedAt: time.Now()}})
	if err := s.RemoveHost(ctx, "host_a"); err != nil || len(f.removed) != 1 {
		t.Fatalf("remove once its run ended: %v (removed %v)", err, f.removed)
	}
}

// A host's run on this bus carries the host's name as the person wrote it
// (run.HostLabel), so the tray and notifications say "on me@a", not its id.
func TestRemoteRunsCarryTheHostsName(t *testing.T) {
	s, _, _ := busWorld(t, service.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.SetHosts(&fakeHosts{list: []hosts.Host{{ID: "host_a", Target: "me@a"}}})
	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	next(t, ch) // the snapshot
	s.PublishRemote("host_a", run.WatchMessage{Type: run.WatchRunChanged, Run: &run.RunState{RunID: "r1", SessionID: "s1", Status: run.StatusRunning, CreatedAt: time.Now()}})
	s.PublishRemote("host_b", run.WatchMessage{Type: run.WatchSnapshotType, Snapshot: &run.WatchSnapshot{Runs: []run.RunState{{RunID: "r2", SessionID: "s2", Status: run.StatusRunning, CreatedAt: time.Now()}}}})
	want := map[string]string{"r1": "me@a", "r2": "host_b"} // host_b: no record known
	for len(want) > 0 {
		m := next(t, ch)
		if m.Type != run.WatchRunChanged {
			continue
		}
		if w, ok := want[m.Run.RunID]; !ok || m.Run.Where() != w {
			t.Fatalf("run %s on %q, want %q", m.Run.RunID, m.Run.Where(), w)
		}
		delete(want, m.Run.RunID)
	}
}
