//go:build linux

package httpapi_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/paths"
)

// A runtime folder others can open is refused, saying so, not tightened
// and reused: someone may already have put a socket there.
func TestListenLocalRefusesAnOpenFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rt")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777)
	_, err := httpapi.ListenLocal(filepath.Join(dir, httpapi.SocketName))
	if !errors.Is(err, paths.ErrNotPrivate) || !strings.Contains(err.Error(), "chmod 700") {
		t.Fatalf("err = %v", err)
	}
}

// serverAsNobody answers every HTTP request with 200 on sock, from a
// process of another user (uid 65534): the squatter of a socket folder.
const squatter = `
import os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777); s.listen(8)
print("ready", flush=True)
while True:
    c, _ = s.accept()
    # The client hangs up as soon as it sees whose server this is: a reply
    # to a closed connection must not end the squatter (the next dial would
    # be refused, not refused as foreign).
    try:
        c.recv(65536)
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    except OSError:
        pass
    c.close()
`

// The CLI's client talks only to a server of this user: a squatter's
// socket gets no message and its answers are not believed.
func TestLocalClientRefusesAnotherUsersServer(t *testing.T) {
	// CI runs make test as root (.ci/run): there this must run.
	if os.Getuid() != 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run as root: this test listens as another user")
		}
		t.Skip("needs root to start a process as another user")
	}
	py, err := exec.LookPath("/usr/bin/python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI needs /usr/bin/python3 for the other user's server")
		}
		t.Skip("needs /usr/bin/python3 for the other user's server")
	}
	dir, err := os.MkdirTemp("", "hd-squat")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o777)
	sock := filepath.Join(dir, httpapi.SocketName)
	cmd := exec.Command(py, "-c", squatter, sock)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil || string(buf[:5]) != "ready" {
		t.Fatalf("squatter did not start: %q %v", buf, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := httpapi.NewLocalClient(sock)
	if err := c.Ping(ctx); !errors.Is(err, httpapi.ErrForeignServer) {
		t.Fatalf("ping: %v, want ErrForeignServer", err)
	}
	var got map[string]any
	if err := c.Call(ctx, "POST", "/api/runs", map[string]string{"message": "secret"}, &got); !errors.Is(err, httpapi.ErrForeignServer) {
		t.Fatalf("call: %v (%v), want ErrForeignServer", err, got)
	}
}
