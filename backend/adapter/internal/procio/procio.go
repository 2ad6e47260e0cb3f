// Package procio holds the small pieces every stdio-speaking adapter needs:
// reading newline-delimited JSON of any line length, writing frames from
// several goroutines, and stopping a child's process group.
package procio

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// MaxLine bounds one native frame. Agents echo whole file contents and tool
// outputs in a single line; beyond this the line is dropped, not buffered.
const MaxLine = 64 << 20

// ErrLineTooLong reports a frame longer than MaxLine (it was skipped).
var ErrLineTooLong = errors.New("procio: line too long")

// LineReader reads lines of any length up to MaxLine.
type LineReader struct{ r *bufio.Reader }

// NewLineReader wraps r. Its buffer is held for as long as a warm shim
// keeps the agent: 16 KiB, not 64 (docs/ARCHITECTURE.md §Memory); Next
// joins longer lines.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 16<<10)}
}

// Next returns the next line without its newline. A final line without a
// newline is returned before io.EOF.
func (l *LineReader) Next() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine {
			// Skip the rest of the oversized line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = l.r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, ErrLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return trimEOL(line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return trimEOL(line), nil
		default:
			return nil, err
		}
	}
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// JSONWriter writes one JSON value per line; safe for concurrent use so a
// turn, a cancel and an approval answer never interleave bytes.
type JSONWriter struct {
	mu sync.Mutex
	w  io.Writer
	// Tee, when set, receives a copy of every line (transcript recording).
	Tee func(line []byte)
}

// NewJSONWriter wraps w.
func NewJSONWriter(w io.Writer) *JSONWriter { return &JSONWriter{w: w} }

// Write encodes v and writes it as one line.
func (j *JSONWriter) Write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("procio: encode frame: %w", err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.Tee != nil {
		j.Tee(b)
	}
	if _, err := j.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("procio: write frame: %w", err)
	}
	return nil
}

// killer is implemented by launchers' procs that can kill their group
// (execlaunch.Proc); others are signalled by process group id.
type killer interface{ Kill() error }

// Stop ends a child politely, then firmly: close its stdin (most agents exit
// at EOF), wait grace, SIGTERM the group, wait grace, SIGKILL the group.
func Stop(p adapter.Proc, grace time.Duration) {
	_ = p.Stdin().Close()
	if waitExit(p, grace) {
		return
	}
	Terminate(p, grace)
}

// Terminate sends SIGTERM to the child's process group, waits grace, then
// kills the group.
func Terminate(p adapter.Proc, grace time.Duration) {
	terminateGroup(p.Pid())
	if waitExit(p, grace) {
		return
	}
	if k, ok := p.(killer); ok {
		_ = k.Kill()
	} else {
		killGroup(p.Pid())
	}
	<-p.Exited()
}

func waitExit(p adapter.Proc, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.Exited():
		return true
	case <-t.C:
		return false
	}
}

// WaitGroupGone polls until no process of group pgid is left (orphaned
// members are reaped by init, a moment after they die) or d passes.
func WaitGroupGone(pgid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for GroupAlive(pgid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
