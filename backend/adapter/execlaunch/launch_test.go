//go:build unix

package execlaunch

import (
	"context"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/testkit/syncbuf"
)

// syncBuf is a goroutine-safe bytes.Buffer for the child's stderr.
type syncBuf = syncbuf.Buffer

func launch(t *testing.T, l Launcher, script string) *Proc {
	t.Helper()
	p, err := l.Launch(context.Background(), adapter.ProcSpec{
		Path: "/bin/sh", Args: []string{"-c", script}, Dir: t.TempDir(), Env: []string{"FOO=bar"},
	})
	if err != nil {
		t.Fatal(err)
	}
	proc := p.(*Proc)
	t.Cleanup(func() { _ = proc.Kill(); _, _ = proc.Wait() })
	return proc
}

func TestOutputSurvivesExitAndCodeIsReported(t *testing.T) {
	var stderr syncBuf
	p := launch(t, Launcher{Stderr: &stderr}, `read line; echo "got $line $FOO"; echo oops >&2; exit 3`)
	if _, err := io.WriteString(p.Stdin(), "hello\n"); err != nil {
		t.Fatal(err)
	}
	code, err := p.Wait()
	if err != nil || code != 3 {
		t.Fatalf("Wait = %d, %v; want 3, nil", code, err)
	}
	// Read only after the exit: a StdoutPipe would have been closed by now.
	out, err := io.ReadAll(p.Stdout())
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != "got hello bar\n" {
		t.Fatalf("stdout = %q", got)
	}
	if !strings.Contains(stderr.String(), "oops") {
		t.Fatalf("stderr = %q", stderr.String())
	}
	select {
	case <-p.Exited():
	default:
		t.Fatal("Exited not closed after Wait")
	}
}

func TestChildLeadsItsOwnProcessGroupAndKillTakesTheGroup(t *testing.T) {
	// The shell starts a grandchild that would outlive a plain Kill of the shell.
	p := launch(t, Launcher{}, `sleep 300 & echo $!; wait`)
	var line [32]byte
	n, err := p.Stdout().Read(line[:])
	if err != nil {
		t.Fatal(err)
	}
	var grandchild int
	for _, c := range strings.TrimSpace(string(line[:n])) {
		grandchild = grandchild*10 + int(c-'0')
	}
	pgid, err := syscall.Getpgid(p.Pid())
	if err != nil || pgid != p.Pid() {
		t.Fatalf("pgid = %d, %v; want %d", pgid, err, p.Pid())
	}
	if gp, _ := syscall.Getpgid(grandchild); gp != p.Pid() {
		t.Fatalf("grandchild pgid = %d; want %d", gp, p.Pid())
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if code, _ := p.Wait(); code != -1 {
		t.Fatalf("exit code = %d; want -1 (signal)", code)
	}
	// The grandchild got the same SIGKILL; it is reaped by init, so poll
	// until it is gone rather than assume a timing.
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(grandchild, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived the group kill", grandchild)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := p.Kill(); err != nil {
		t.Fatalf("Kill after exit = %v; want nil", err)
	}
}

func TestMissingProgram(t *testing.T) {
	_, err := Launcher{}.Launch(context.Background(), adapter.ProcSpec{Path: "/nonexistent/agent"})
	if err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Fatalf("err = %v; want a not-exist error", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok || u.Unwrap() == nil {
			return err
		}
		err = u.Unwrap()
	}
}
