// Package dbustest starts a private D-Bus session bus for one test, so tests
// never touch the developer's desktop session or each other.
package dbustest

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Require skips the test when prog is not installed, except in CI
// (CI=true), where a missing prerequisite is a failure, never a silent skip.
func Require(t testing.TB, progs ...string) {
	t.Helper()
	for _, p := range progs {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is required in CI (scripts/deps.sh test installs it): %v", p, err)
			}
			t.Skipf("%s not installed (scripts/deps.sh test installs it)", p)
		}
	}
}

// Start runs dbus-daemon on a fresh session bus and returns its address.
// The daemon is killed when the test ends.
func Start(t testing.TB) string {
	t.Helper()
	Require(t, "dbus-daemon")
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("dbus-daemon: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case addr := <-line:
		if addr == "" {
			t.Fatal("dbus-daemon printed no address")
		}
		return addr
	case <-time.After(10 * time.Second):
		t.Fatal("dbus-daemon did not start")
	}
	return ""
}
