package peercred

import (
	"errors"
	"net"
	"path/filepath"
	"testing"
)

// TestCheck accepts a same-user Unix peer and refuses a connection that
// carries no credentials at all.
func TestCheck(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dialed := make(chan net.Conn, 1)
	go func() {
		c, err := net.Dial("unix", sock)
		if err != nil {
			dialed <- nil
			return
		}
		dialed <- c
	}()
	srv, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if cli := <-dialed; cli != nil {
		defer cli.Close()
	}
	if err := Check(srv); err != nil {
		t.Fatalf("same-user unix peer: %v", err)
	}

	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if err := Check(a); !errors.Is(err, ErrNotUnix) {
		t.Fatalf("pipe: got %v, want ErrNotUnix", err)
	}
}
