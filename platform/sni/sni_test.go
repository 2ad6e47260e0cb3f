package sni

import (
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/testkit/dbustest"
	"github.com/hermesdesk/hermesdesk/testkit/trayhost"
)

func TestDetectorSeesHostComeAndGo(t *testing.T) {
	bus := dbustest.Start(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
	changes := make(chan bool, 4)
	d, err := NewDetector(func(p bool) { changes <- p })
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Present() {
		t.Fatal("host present on an empty bus")
	}
	next := func() bool {
		t.Helper()
		select {
		case p := <-changes:
			return p
		case <-time.After(10 * time.Second):
			t.Fatal("no change reported")
			return false
		}
	}
	host, err := trayhost.New(bus)
	if err != nil {
		t.Fatal(err)
	}
	if !next() || !d.Present() {
		t.Fatal("appearance not seen")
	}
	if has, err := HasOwner(d.conn); err != nil || !has {
		t.Fatalf("HasOwner = %v, %v", has, err)
	}
	host.Close()
	if next() || d.Present() {
		t.Fatal("departure not seen")
	}
}
