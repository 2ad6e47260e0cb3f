//go:build linux

package control

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// listenAs listens on sock with this thread's effective uid set to uid
// (root only): the socket's peer credentials name that user.
func listenAs(t *testing.T, sock string, uid int) net.Listener {
	t.Helper()
	type res struct {
		ln  net.Listener
		err error
	}
	got := make(chan res, 1)
	go func() {
		// Raw setresuid changes this thread only; the thread is never
		// unlocked, so the runtime retires it instead of reusing it.
		runtime.LockOSThread()
		if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESUID, ^uintptr(0), uintptr(uid), ^uintptr(0)); e != 0 {
			got <- res{nil, e}
			return
		}
		ln, err := net.Listen("unix", sock)
		got <- res{ln, err}
	}()
	r := <-got
	if errors.Is(r.err, syscall.EPERM) {
		t.Skip("cannot take another uid here (no CAP_SETUID)")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	t.Cleanup(func() { r.ln.Close() })
	return r.ln
}

// A client sends the token and the request (a next run's spec carries the
// agent's settings, keys included) only to a shim of this user: a socket
// another user put where a (stale or forged) record points is refused.
func TestCallRefusesAnotherUsersSocket(t *testing.T) {
	if os.Getuid() != 0 {
		// CI runs make test as root (.ci/run): there this must run.
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run as root: this test listens as another user")
		}
		t.Skip("needs root to listen as another user")
	}
	// Not t.TempDir: its parent is closed to the other user.
	dir, err := os.MkdirTemp("", "hdpeer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s")
	ln := listenAs(t, sock, 65534)
	heard := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		line, _ := bufio.NewReader(c).ReadString('\n')
		heard <- line
		c.Write([]byte(`{"id":1,"bootstrap":{"run_id":"run_2","socket":"/x"}}` + "\n"))
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	spec := Spec{RunID: "run_2", Config: adapter.Config{APIKey: "sk-secret"}}
	_, err = Call(ctx, Bootstrap{Socket: sock, Token: "tok"}, Request{Op: OpNextRun, Spec: &spec})
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("call to another user's socket = %v, want ErrUnreachable", err)
	}
	select {
	case line := <-heard:
		if line != "" {
			t.Fatalf("the token and spec reached another user's process: %s", line)
		}
	case <-time.After(500 * time.Millisecond):
	}
}
