// Package trayproto is the line protocol between the app and its tray
// helper: one JSON object per line over the helper's stdin (app → tray) and
// stdout (tray → app). Lines are tiny, so a pipe never needs flow control.
//
//	app → tray  {"op":"state","autostart":true,"running":2}
//	tray → app  {"op":"open"} {"op":"autostart","enabled":true} {"op":"quit"}
package trayproto

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Ops.
const (
	OpState     = "state"     // app → tray: what the menu should show
	OpOpen      = "open"      // tray → app: show the window
	OpAutostart = "autostart" // tray → app: set start at login to Enabled
	OpQuit      = "quit"      // tray → app: quit the app
)

// MaxLine bounds a line; anything longer is a bug or garbage.
const MaxLine = 64 << 10

// ErrUnknownOp marks a well-formed line with an op this build does not know:
// a newer peer, skipped rather than fatal.
var ErrUnknownOp = errors.New("trayproto: unknown op")

// Msg is every message; fields not used by an op are zero.
type Msg struct {
	Op        string `json:"op"`
	Autostart bool   `json:"autostart,omitempty"` // state
	Running   int    `json:"running,omitempty"`   // state: active runs
	Enabled   bool   `json:"enabled,omitempty"`   // autostart
}

// Decode parses one line.
func Decode(line []byte) (Msg, error) {
	var m Msg
	if err := json.Unmarshal(line, &m); err != nil {
		return Msg{}, fmt.Errorf("trayproto: %w", err)
	}
	switch m.Op {
	case OpState:
		if m.Running < 0 {
			return Msg{}, fmt.Errorf("trayproto: negative running count %d", m.Running)
		}
	case OpOpen, OpAutostart, OpQuit:
	default:
		return Msg{}, fmt.Errorf("%w %q", ErrUnknownOp, m.Op)
	}
	return m, nil
}

// Writer writes messages as lines; safe for concurrent use.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sends one message.
func (w *Writer) Write(m Msg) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("trayproto: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.w.Write(append(b, '\n'))
	return err
}

// Read calls fn for each message on r until EOF or a read error; bad lines
// go to bad (which may be nil) and do not stop reading.
func Read(r io.Reader, fn func(Msg), bad func(line []byte, err error)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), MaxLine)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		m, err := Decode(line)
		if err != nil {
			if bad != nil {
				bad(line, err)
			}
			continue
		}
		fn(m)
	}
	return sc.Err()
}
