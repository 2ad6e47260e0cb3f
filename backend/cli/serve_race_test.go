package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/shim/control"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// Two serves started together on one data dir: the one that loses the
// supervisor lock finds the winner still opening the data dir. It waits
// for it (here: the holder goes away and it takes over) instead of ending
// with "does not answer" (issue 21 item 13).
func TestServeWaitsForAHolderStillStarting(t *testing.T) {
	dir := newDataDir(t)
	lock, err := control.TryLock(filepath.Join(dir, supervisor.LockFile))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuf{}
	ready := make(chan string, 1)
	env := &Env{
		Stdout: out, Stderr: out, Ctx: ctx, Executable: shimBin,
		DataDir: func() (string, error) { return dir, nil },
		Signals: func() (<-chan os.Signal, func()) { return make(chan os.Signal), func() {} },
		Ready:   func(u string) { ready <- u },
	}
	done := make(chan int, 1)
	go func() { done <- env.Serve([]string{"--addr", "127.0.0.1:0"}, nil) }()
	select {
	case code := <-done:
		t.Fatalf("serve exited %d while the holder was starting:\n%s", code, out.String())
	case <-time.After(300 * time.Millisecond):
	}
	lock.Unlock() // the "winner" goes: serve takes its place
	select {
	case <-ready:
	case code := <-done:
		t.Fatalf("serve exited %d:\n%s", code, out.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("serve never served:\n%s", out.String())
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exited %d:\n%s", code, out.String())
	}
}

// A holder that never answers is named plainly: another serve or the app
// holds the data dir.
func TestServeNamesAHolderThatDoesNotAnswer(t *testing.T) {
	old := holderWait
	holderWait = 200 * time.Millisecond
	t.Cleanup(func() { holderWait = old })
	dir := newDataDir(t)
	lock, err := control.TryLock(filepath.Join(dir, supervisor.LockFile))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	out := &syncBuf{}
	env := &Env{
		Stdout: out, Stderr: out, Ctx: context.Background(), Executable: shimBin,
		DataDir: func() (string, error) { return dir, nil },
		Signals: func() (<-chan os.Signal, func()) { return make(chan os.Signal), func() {} },
	}
	if code := env.Serve([]string{"--addr", "127.0.0.1:0"}, nil); code != exitFail {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if s := out.String(); !strings.Contains(s, "another Hermes Desk holds the data folder") || !strings.Contains(s, "another `hermesdesk serve` or the app") {
		t.Fatalf("message:\n%s", s)
	}
}

// Two serves on one data dir and one address: the second says another
// serve already serves the data folder there, not a bare "address in use".
func TestSecondServeOnTheSameAddressSaysSo(t *testing.T) {
	dir := newDataDir(t)
	first := startServe(t, dir)
	defer first.stop()
	addr := strings.TrimPrefix(first.url, "http://")
	out := &syncBuf{}
	env := &Env{
		Stdout: out, Stderr: out, Ctx: context.Background(), Executable: shimBin,
		DataDir: func() (string, error) { return dir, nil },
		Signals: func() (<-chan os.Signal, func()) { return make(chan os.Signal), func() {} },
	}
	if code := env.Serve([]string{"--addr", addr}, nil); code != exitFail {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if s := out.String(); !strings.Contains(s, "another `hermesdesk serve` already serves the data folder") {
		t.Fatalf("message:\n%s", s)
	}
}
