//go:build unix

package acp

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/execlaunch"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// go test -run TestRecordTranscripts -record re-records testdata/fake-*.jsonl
// from the fake agent (then -update regenerates the golden events).
var record = flag.Bool("record", false, "re-record testdata/fake-*.jsonl from the fake agent")

// teeLauncher records every line to and from the agent, in the format of
// the Gemini samples: lines to the agent carry "_direction":"to_agent".
type teeLauncher struct {
	inner adapter.Launcher
	mu    sync.Mutex
	out   bytes.Buffer
}

func (l *teeLauncher) Launch(ctx context.Context, spec adapter.ProcSpec) (adapter.Proc, error) {
	p, err := l.inner.Launch(ctx, spec)
	if err != nil {
		return nil, err
	}
	return &teeProc{Proc: p, l: l}, nil
}

func (l *teeLauncher) line(b []byte, toAgent bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if toAgent && len(b) > 0 && b[0] == '{' {
		l.out.WriteString(`{"_direction":"to_agent",`)
		l.out.Write(b[1:])
	} else {
		l.out.Write(b)
	}
	l.out.WriteByte('\n')
}

type teeProc struct {
	adapter.Proc
	l *teeLauncher
}

func (p *teeProc) Stdin() io.WriteCloser {
	return &lineTee{WriteCloser: p.Proc.Stdin(), emit: func(b []byte) { p.l.line(b, true) }}
}

func (p *teeProc) Stdout() io.ReadCloser {
	return &readTee{ReadCloser: p.Proc.Stdout(), emit: func(b []byte) { p.l.line(b, false) }}
}

func (p *teeProc) Kill() error {
	if k, ok := p.Proc.(killer); ok {
		return k.Kill()
	}
	return nil
}

type lineTee struct {
	io.WriteCloser
	emit func([]byte)
	buf  []byte
}

func (t *lineTee) Write(b []byte) (int, error) {
	t.buf = splitLines(append(t.buf, b...), t.emit)
	return t.WriteCloser.Write(b)
}

type readTee struct {
	io.ReadCloser
	emit func([]byte)
	buf  []byte
}

func (t *readTee) Read(b []byte) (int, error) {
	n, err := t.ReadCloser.Read(b)
	t.buf = splitLines(append(t.buf, b[:n]...), t.emit)
	return n, err
}

func splitLines(buf []byte, emit func([]byte)) []byte {
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return buf
		}
		emit(buf[:i])
		buf = buf[i+1:]
	}
}

// recordings are the fake-agent transcripts kept under testdata/.
var recordings = []struct {
	name, prompt string
	answer       string // approval option or clarify answer, if asked
}{
	{"demo", "hello", ""},
	{"tool", "/scenario tool", ""},
	{"approval-allow", "/scenario approval", "allow-once"},
	{"approval-reject", "/scenario approval", "reject-once"},
	{"clarify", "/scenario clarify", "green"},
	{"thinking", "/scenario thinking", ""},
	{"malformed", "/scenario malformed", ""},
	{"hostile", "/scenario hostile", ""},
	{"escape", "/scenario escape", ""},
	{"terminal", "/scenario terminal", ""},
}

func TestRecordTranscripts(t *testing.T) {
	if !*record {
		t.Skip("run with -record to re-record testdata/fake-*.jsonl")
	}
	for _, r := range recordings {
		t.Run(r.name, func(t *testing.T) {
			h := newHarness(t)
			tee := &teeLauncher{inner: execlaunch.Launcher{Stderr: h.log}}
			c, err := h.adapter().Start(context.Background(), adapter.StartRequest{
				Workspace: h.workspace,
				Config:    adapter.Config{Command: []string{fakeAgentBin, "demo-agent"}, Env: []string{"HERMESDESK_FAKEAGENT_STATE=" + h.state}},
			}, adapter.Host{Launcher: tee, Log: h.log})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			rec := newRecorder()
			done := make(chan adapter.TurnResult, 1)
			go func() { done <- c.Turn(context.Background(), adapter.TurnRequest{Message: r.prompt}, rec) }()
			if r.answer != "" {
				if r.name == "clarify" {
					cr := waitFor[run.ClarifyRequested](t, rec, run.EventClarifyRequest)
					_ = c.RespondClarify(context.Background(), cr.ClarifyID, r.answer)
				} else {
					ar := waitFor[run.ApprovalRequested](t, rec, run.EventApprovalRequest)
					_ = c.RespondApproval(context.Background(), ar.ApprovalID, r.answer)
				}
			}
			if res := <-done; res.Err != nil {
				t.Fatal(res.Err)
			}
			tee.mu.Lock()
			defer tee.mu.Unlock()
			if err := os.WriteFile(filepath.Join("testdata", "fake-"+r.name+".jsonl"), tee.out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
