//go:build linux

package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// buildVersion builds the hermesdesk program as version v (the app's
// build, with another -X version).
func buildVersion(t *testing.T, v string) string {
	t.Helper()
	buildApp(t) // skips when the web app is not built
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(binDir, "v-"+v, "hermesdesk")
	cmd := exec.Command("go", "build", "-tags", "sqlite_fts5,webkit2_41",
		"-ldflags", "-X github.com/hermesdesk/hermesdesk/backend/version.Version="+v, "-o", bin, ".")
	cmd.Dir = strings.TrimSpace(string(out))
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", v, err, msg)
	}
	return bin
}

// tcpListeners counts the TCP sockets in LISTEN state that process pid
// holds (its fds' socket inodes in /proc/net/tcp{,6}).
func tcpListeners(t *testing.T, pid int) int {
	t.Helper()
	inodes := map[string]bool{}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	for _, fd := range fds {
		l, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if ino, ok := strings.CutPrefix(l, "socket:["); ok {
			inodes[strings.TrimSuffix(ino, "]")] = true
		}
	}
	n := 0
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(b), "\n")[1:] {
			c := strings.Fields(line)
			if len(c) > 9 && c[3] == "0A" && inodes[c[9]] { // 0A: LISTEN
				n++
			}
		}
	}
	return n
}

// serve --socket-only: no TCP listener, its API on api.sock; a newer
// version started with --detach hands over from the older one (which
// exits) and answers on the same socket; the same version started again
// only reports the socket.
func TestServeSocketOnlyHandsOverToANewerVersion(t *testing.T) {
	old := buildVersion(t, "0.0.1-old")
	cur := buildVersion(t, "0.0.2-new")
	dir := newDataDir(t)
	// The cores are detached: end every one of this data dir, whatever
	// the test reached.
	t.Cleanup(func() { killByHome(dir) })

	oldCmd := exec.Command(old, "serve", "--socket-only")
	oldCmd.Env = append(os.Environ(), "HERMESDESK_HOME="+dir)
	stdout, err := oldCmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	oldCmd.Stderr = os.Stderr
	if err := oldCmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	t.Cleanup(func() { oldCmd.Process.Kill() })
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	go func() { exited <- oldCmd.Wait() }()
	sock := httpapi.SocketPath(dir)
	if strings.TrimSpace(line) != "socket="+sock {
		t.Fatalf("old core said %q, want socket=%s", line, sock)
	}
	if n := tcpListeners(t, oldCmd.Process.Pid); n != 0 {
		t.Fatalf("serve --socket-only listens on %d TCP sockets", n)
	}
	if st, err := os.Stat(sock); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("api.sock %v %v", st, err)
	}

	start := func() string {
		t.Helper()
		c := exec.Command(cur, "serve", "--socket-only", "--detach")
		c.Env = append(os.Environ(), "HERMESDESK_HOME="+dir)
		out, err := c.CombinedOutput()
		if err != nil {
			b, _ := os.ReadFile(filepath.Join(dir, "host-core.log"))
			t.Fatalf("detach: %v %s\n%s", err, out, b)
		}
		return strings.TrimSpace(string(out))
	}
	if got := start(); got != "socket="+sock {
		t.Fatalf("new core said %q", got)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the old core ended with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the old core did not hand over")
	}
	var c hostCore
	b, _ := os.ReadFile(filepath.Join(dir, hostCoreFile))
	if json.Unmarshal(b, &c) != nil || c.Version != "0.0.2-new" || c.PID == 0 {
		t.Fatalf("host-core.json %s", b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := httpapi.NewLocalClient(sock).Ping(ctx); err != nil {
		t.Fatalf("the new core's API: %v", err)
	}
	if got := start(); got != "socket="+sock {
		t.Fatalf("started again: %q", got)
	}
	b2, _ := os.ReadFile(filepath.Join(dir, hostCoreFile))
	if string(b2) != string(b) {
		t.Fatalf("the same version started a second core: %s then %s", b, b2)
	}
}

// killByHome SIGKILLs every process whose environment names dir as its
// HERMESDESK_HOME.
func killByHome(dir string) {
	ents, _ := os.ReadDir("/proc")
	want := []byte("HERMESDESK_HOME=" + dir + "\x00")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err == nil && bytes.Contains(env, want) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
