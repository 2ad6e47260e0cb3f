//go:build unix

package remote

// The local side as its own process, for kill -9: the test binary run
// again with childSocketEnv follows that socket into a file sink (one
// JSON event a line, written and synced as one batch) and prints a line
// per stored batch, so the test waits on its output, not on a clock.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

const (
	childSocketEnv  = "HD_REMOTE_TEST_SOCKET"
	childFileEnv    = "HD_REMOTE_TEST_FILE"
	childJournalEnv = "HD_REMOTE_TEST_JOURNAL" // set: the file is a journal, kept by JournalSink
)

type staticLink struct{ host, socket string }

func (l staticLink) Host() string        { return l.host }
func (l staticLink) Socket() string      { return l.socket }
func (l staticLink) Up() <-chan struct{} { return nil }

func childFollower() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	var sink Sink = &fileSink{path: os.Getenv(childFileEnv)}
	if os.Getenv(childJournalEnv) != "" {
		j, err := journal.Open(os.Getenv(childFileEnv), journal.Options{Log: quiet})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer j.Close()
		sink = printingSink{JournalSink{Cursor: j}}
	}
	f := New(staticLink{"h1", os.Getenv(childSocketEnv)}, sink, Options{MinBackoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
		Message: func(_ string, m run.WatchMessage) {
			if m.Type == run.WatchRunChanged && m.Run.Status.Terminal() {
				fmt.Printf("ended %s\n", m.Run.RunID)
			}
		}})
	if err := f.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// fileSink is a durable sink in one file; a torn last line (killed while
// writing) is dropped on open, so what counts is what was written whole.
type fileSink struct{ path string }

func (s *fileSink) Cursors(context.Context, string) (map[string]int64, error) {
	b, err := os.ReadFile(s.path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(b, '\n'); i+1 < len(b) {
		b = b[:i+1]
		if err := os.WriteFile(s.path, b, 0o600); err != nil {
			return nil, err
		}
	}
	cur := map[string]int64{}
	for _, ev := range decodeEvents(b) {
		cur[ev.RunID] = max(cur[ev.RunID], ev.Seq)
	}
	return cur, nil
}

func (s *fileSink) Store(_ context.Context, _ string, evs []run.Event) error {
	var buf bytes.Buffer
	for _, ev := range evs {
		b, _ := json.Marshal(ev)
		buf.Write(append(b, '\n'))
	}
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(buf.Bytes()); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	fmt.Printf("stored %s %d\n", evs[0].RunID, evs[len(evs)-1].Seq)
	return nil
}

// printingSink says each batch stored, as fileSink does.
type printingSink struct{ JournalSink }

func (s printingSink) Store(ctx context.Context, host string, evs []run.Event) error {
	if err := s.JournalSink.Store(ctx, host, evs); err != nil {
		return err
	}
	fmt.Printf("stored %s %d\n", evs[0].RunID, evs[len(evs)-1].Seq)
	return nil
}

func decodeEvents(b []byte) []run.Event {
	var out []run.Event
	for _, line := range bytes.Split(b, []byte("\n")) {
		var ev run.Event
		if json.Unmarshal(line, &ev) == nil && ev.Seq > 0 {
			out = append(out, ev)
		}
	}
	return out
}

// child is a running follower process.
type child struct {
	cmd    *exec.Cmd
	stored chan int64 // the last seq of each stored batch
	ended  chan string
}

func startChild(t testing.TB, socket, file string, env ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), childSocketEnv+"="+socket, childFileEnv+"="+file), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, stored: make(chan int64, 1<<12), ended: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var id string
			var seq int64
			if n, _ := fmt.Sscanf(strings.TrimSpace(sc.Text()), "stored %s %d", &id, &seq); n == 2 {
				c.stored <- seq
			} else if n, _ := fmt.Sscanf(strings.TrimSpace(sc.Text()), "ended %s", &id); n == 1 {
				c.ended <- id
			}
		}
		close(c.stored)
	}()
	t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
	return c
}

// until waits for a stored batch reaching seq.
func (c *child) until(t testing.TB, seq int64) {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case got, ok := <-c.stored:
			if !ok {
				t.Fatalf("the follower process ended before storing seq %d", seq)
			}
			if got >= seq {
				return
			}
		case <-timeout:
			t.Fatalf("the follower process did not store seq %d", seq)
		}
	}
}

func (c *child) kill9(t testing.TB) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	c.cmd.Wait()
}
