package sessionbus

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// No address and no user bus: an error, and no `dbus-launch` is run (a fake
// one on PATH records being called).
func TestNoBusStartsNone(t *testing.T) {
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "launched")
	fake := "#!/bin/sh\ntouch " + marker + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if _, err := Address(); !errors.Is(err, ErrNoBus) {
		t.Fatalf("Address: %v, want ErrNoBus", err)
	}
	if _, err := Connect(""); !errors.Is(err, ErrNoBus) {
		t.Fatalf("Connect: %v, want ErrNoBus", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("dbus-launch was run")
	}
}

func TestAddress(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/x")
	if a, err := Address(); err != nil || a != "unix:path=/x" {
		t.Fatalf("%q %v", a, err)
	}
	// The user bus socket, when only it is there.
	rt := t.TempDir()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", rt)
	l, err := net.Listen("unix", filepath.Join(rt, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if a, err := Address(); err != nil || a != "unix:path="+filepath.Join(rt, "bus") {
		t.Fatalf("%q %v", a, err)
	}
	// A plain file named bus is not a bus.
	rt2 := t.TempDir()
	os.WriteFile(filepath.Join(rt2, "bus"), nil, 0o600)
	t.Setenv("XDG_RUNTIME_DIR", rt2)
	if _, err := Address(); !errors.Is(err, ErrNoBus) {
		t.Fatalf("a file: %v", err)
	}
}
