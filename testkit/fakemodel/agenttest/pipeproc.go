package agenttest

import (
	"bufio"
	"encoding/json"
	"io"
	"sync"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// PipeProc is an adapter.Proc played in memory by a test: the adapter's
// frames are read with ServeJSON and the child's stdout is written with Say.
// It has no process, so Pid is 0 and nothing is ever signalled.
type PipeProc struct {
	stdinR  *io.PipeReader
	stdinW  *io.PipeWriter
	stdoutR *io.PipeReader
	stdoutW *io.PipeWriter
	exited  chan struct{}
	once    sync.Once
}

var _ adapter.Proc = (*PipeProc)(nil)

// NewPipeProc returns a running PipeProc that exits when t ends.
func NewPipeProc(t testing.TB) *PipeProc {
	p := &PipeProc{exited: make(chan struct{})}
	p.stdinR, p.stdinW = io.Pipe()
	p.stdoutR, p.stdoutW = io.Pipe()
	t.Cleanup(func() { p.Exit(); _ = p.stdinR.Close() })
	return p
}

func (p *PipeProc) Stdin() io.WriteCloser   { return p.stdinW }
func (p *PipeProc) Stdout() io.ReadCloser   { return p.stdoutR }
func (p *PipeProc) Pid() int                { return 0 }
func (p *PipeProc) Exited() <-chan struct{} { return p.exited }
func (p *PipeProc) Wait() (int, error)      { <-p.exited; return 0, nil }

// Exit ends the child: its stdout closes and Exited fires. Idempotent.
func (p *PipeProc) Exit() {
	p.once.Do(func() { p.stdoutW.Close(); close(p.exited) })
}

// Say writes one line to the child's stdout (dropped once it has exited).
func (p *PipeProc) Say(line string) { _, _ = io.WriteString(p.stdoutW, line+"\n") }

// ServeJSON plays the child in the background: it decodes every line the
// adapter writes to stdin into a T and hands it to fn, until stdin closes
// or a line does not decode (an error of t); then the child exits.
func ServeJSON[T any](t testing.TB, p *PipeProc, fn func(in T)) {
	go func() {
		defer p.Exit()
		sc := bufio.NewScanner(p.stdinR)
		for sc.Scan() {
			var in T
			if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
				t.Errorf("bad frame from adapter: %s", sc.Bytes())
				return
			}
			fn(in)
		}
	}()
}
