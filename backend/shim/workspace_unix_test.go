//go:build unix

package shim

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// fakeGitOnPath puts a git first on PATH that behaves like git except for
// `git add`, which runs addScript instead.
func fakeGitOnPath(t *testing.T, addScript string) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	bin := t.TempDir()
	script := "#!/bin/sh\nif [ \"$1\" != add ]; then exec " + real + " \"$@\"; fi\n" + addScript
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func gitWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	gitcmdtest.Git(t, ws, "init", "-q")
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("one\n"), 0o644)
	return ws
}

// A snapshot that hangs (a child holding git's stderr) does not hold up a
// Stop: the cancel interrupts it and the run ends cancelled at once, not
// after the snapshot's 10 s (issue 21, item 4).
func TestCancelInterruptsTheStartSnapshot(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "adding")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	fakeGitOnPath(t, "echo adding > "+fifo+"\nsleep 300 &\nexec sleep 300\n")
	ws := gitWorkspace(t)
	started := false
	c := &fakeConn{turn: func(context.Context, adapter.TurnRequest, adapter.Emitter) adapter.TurnResult {
		started = true
		return adapter.TurnResult{StopReason: "end_turn"}
	}}
	h := startHarnessWith(t, connAdapter(adapter.Capabilities{}, c), nil, func(s *control.Spec) { s.Workspace = ws })
	f, err := os.Open(fifo) // returns once git add runs
	if err != nil {
		t.Fatal(err)
	}
	bufio.NewReader(f).ReadString('\n')
	f.Close()
	began := time.Now()
	if res := h.control(control.Request{Op: control.OpCancel}); !res.Accepted {
		t.Fatalf("cancel: %+v", res)
	}
	h.wait()
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("the run ended %v after Stop", took)
	}
	if d := h.done(); d.Status != run.StatusCancelled {
		t.Errorf("done %+v", d)
	}
	if started {
		t.Error("the agent's turn ran after Stop")
	}
}

// When git cannot take the snapshot, the run says so (issue 21, item 8).
func TestFailedSnapshotIsSaid(t *testing.T) {
	fakeGitOnPath(t, "echo 'fatal: no' >&2\nexit 128\n")
	ws := gitWorkspace(t)
	c := &fakeConn{turn: func(context.Context, adapter.TurnRequest, adapter.Emitter) adapter.TurnResult {
		return adapter.TurnResult{StopReason: "end_turn"}
	}}
	h := startHarnessWith(t, connAdapter(adapter.Capabilities{}, c), nil, func(s *control.Spec) { s.Workspace = ws })
	h.wait()
	var notices []string
	for _, ev := range h.j.all() {
		if ev.Type == run.EventNotice {
			var n run.Notice
			json.Unmarshal(ev.Payload, &n)
			notices = append(notices, n.Message)
		}
	}
	if len(notices) != 1 || !strings.HasPrefix(notices[0], startSnapshotFailed) {
		t.Fatalf("notices %q", notices)
	}
	if d := h.done(); d.Status != run.StatusCompleted {
		t.Errorf("done %+v", d)
	}
}
