// Package coreapi is the resident core's own small protocol on the data
// dir's local socket, beside the API routes: who runs (version, pid), show
// the window, hand over to a newer build, quit, and the window process's
// attach stream. The launcher (`hermesdesk`) and the window process
// (`hermesdesk-window`) are its clients. It imports nothing heavy, so the
// window links no journal and the launcher starts in milliseconds.
// See docs/ARCHITECTURE.md §Processes.
package coreapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/peercred"
)

// SocketName is the core's socket in the data dir's runtime dir, beside
// the API's.
const SocketName = "core.sock"

// SocketPath is the core's socket for dataDir.
func SocketPath(dataDir string) string {
	return filepath.Join(paths.RuntimeDir(dataDir), SocketName)
}

// Prefix is where the core's own routes live on the local socket; the
// service API keeps /api/.
const Prefix = "/core/"

// Routes.
const (
	PathInfo      = "/core/info"          // GET → Info
	PathShow      = "/core/show"          // POST Launch
	PathHandover  = "/core/handover"      // POST HandoverRequest
	PathQuit      = "/core/quit"          // POST QuitRequest
	PathAttach    = "/core/window"        // GET ?pid=&version= → a stream of Command lines
	PathRetire    = "/core/window/retire" // POST RetireRequest
	PathAutostart = "/core/autostart"     // POST {"enabled":bool} → {"enabled":bool}
)

// Info says which core answers.
type Info struct {
	Version       string `json:"version"`
	Commit        string `json:"commit"`
	Pid           int    `json:"pid"`
	DataDir       string `json:"data_dir"`
	WindowPid     int    `json:"window_pid,omitempty"`
	TrayAvailable bool   `json:"tray_available"`
	// AutostartSupported: the OS has a login entry backend.
	AutostartSupported bool `json:"autostart_supported"`
	Autostart          bool `json:"autostart"`
}

// Launch is a launch's request to show the window: the arguments (a
// folder to open) and the directory they are relative to.
type Launch struct {
	Args []string `json:"args,omitempty"`
	Cwd  string   `json:"cwd,omitempty"`
	// Minimised maps the window minimised: a --background start with no
	// tray to come back from.
	Minimised bool `json:"minimised,omitempty"`
	// Session opens that session in the window (the tray's run items, a
	// notification's click); NewSession opens the new-session view.
	Session    string `json:"session,omitempty"`
	NewSession bool   `json:"new_session,omitempty"`
}

// QuitRequest says what quitting does to the active runs, as the person
// chose at the door they quit from (the tray's Quit submenu, Settings →
// Quit): keep them going in their shims (the default, also for an empty
// body) or stop each first (docs/ARCHITECTURE.md §Quit with active runs).
type QuitRequest struct {
	Runs QuitRuns `json:"runs,omitempty"`
}

// QuitRuns is what happens to the active runs on quit.
type QuitRuns string

const (
	QuitKeepRuns QuitRuns = "keep"
	QuitStopRuns QuitRuns = "stop"
)

// HandoverRequest asks the running core to step down for a newer build.
type HandoverRequest struct {
	Version string `json:"version"`
}

// HandoverResponse is the old core's answer: its pid (the new one waits
// for it to exit) and its window's, which will reattach to the new core.
type HandoverResponse struct {
	Pid       int `json:"pid"`
	WindowPid int `json:"window_pid,omitempty"`
}

// RetireRequest is a hidden window asking to exit after its grace period.
// Seq is the last command it has acted on; the core refuses (409) when it
// has sent a later one (a show already on its way), so no show is lost to
// a window that was leaving.
type RetireRequest struct {
	Pid int   `json:"pid"`
	Seq int64 `json:"seq"`
}

// Command ops, core → window.
const (
	OpHello     = "hello"     // first line: tray availability, autostart
	OpShow      = "show"      // show (and raise) the window; Launch may carry a folder
	OpTray      = "tray"      // the tray host came or went
	OpAutostart = "autostart" // the login entry changed
	OpQuit      = "quit"      // the app quits: exit now
	OpHandover  = "handover"  // the core is stepping down for a newer build: do not start another, reconnect
)

// Command is one line of the attach stream.
type Command struct {
	Seq           int64   `json:"seq"`
	Op            string  `json:"op"`
	Launch        *Launch `json:"launch,omitempty"`
	TrayAvailable bool    `json:"tray_available,omitempty"`
	Autostart     bool    `json:"autostart,omitempty"`
	// GraceSeconds (hello) is how long the window stays once hidden.
	GraceSeconds float64 `json:"grace_seconds,omitempty"`
}

// ErrNotRunning: no core answers on the socket.
var ErrNotRunning = errors.New("Hermes Desk is not running")

// ErrRefused is a 409 from the core (e.g. a retire refused).
var ErrRefused = errors.New("refused by the core")

// Client talks to the core over its socket.
type Client struct {
	hc     *http.Client
	stream *http.Client // no timeout: the attach stream lives long
}

// NewClient returns a client of the core listening on socket.
func NewClient(socket string) *Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			// Only a core of this user is told to show windows or quit.
			c, err := peercred.Dial(ctx, socket)
			if peercred.Refused(err) {
				return nil, fmt.Errorf("the core's socket belongs to another user: %w", err)
			}
			return c, err
		},
	}
	return &Client{hc: &http.Client{Transport: tr, Timeout: 10 * time.Second}, stream: &http.Client{Transport: tr}}
}

func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://hermesdesk"+path, body)
	if err != nil {
		return err
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotRunning, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	switch {
	case res.StatusCode == http.StatusConflict:
		return ErrRefused
	case res.StatusCode == http.StatusNotFound:
		// A socket served by something older than the core (serve of a
		// previous build): it answers, but not this protocol.
		return fmt.Errorf("%w: %s has no core routes", ErrNotRunning, path)
	case res.StatusCode/100 != 2:
		return fmt.Errorf("core %s: %s: %s", path, res.Status, bytes.TrimSpace(b))
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// Info asks who runs.
func (c *Client) Info(ctx context.Context) (Info, error) {
	var i Info
	err := c.call(ctx, http.MethodGet, PathInfo, nil, &i)
	return i, err
}

// Show asks the core to show the window (starting its process if needed).
func (c *Client) Show(ctx context.Context, l Launch) error {
	return c.call(ctx, http.MethodPost, PathShow, l, nil)
}

// Handover asks the core to step down; it answers before it goes.
func (c *Client) Handover(ctx context.Context, version string) (HandoverResponse, error) {
	var r HandoverResponse
	err := c.call(ctx, http.MethodPost, PathHandover, HandoverRequest{Version: version}, &r)
	return r, err
}

// Quit asks the core to quit the app, keeping or stopping the active runs.
func (c *Client) Quit(ctx context.Context, runs QuitRuns) error {
	return c.call(ctx, http.MethodPost, PathQuit, QuitRequest{Runs: runs}, nil)
}

// Retire asks leave to exit; ErrRefused when a show is on its way.
func (c *Client) Retire(ctx context.Context, r RetireRequest) error {
	return c.call(ctx, http.MethodPost, PathRetire, r, nil)
}

// SetAutostart writes or removes the login entry; returns what is on disk.
func (c *Client) SetAutostart(ctx context.Context, enabled bool) (bool, error) {
	var out struct {
		Enabled bool   `json:"enabled"`
		Error   string `json:"error"`
	}
	err := c.call(ctx, http.MethodPost, PathAutostart, map[string]bool{"enabled": enabled}, &out)
	if err == nil && out.Error != "" {
		err = errors.New(out.Error)
	}
	return out.Enabled, err
}

// Attach opens the window's command stream and calls fn for each command
// until the stream ends (the core went away: returns an error) or ctx ends.
func (c *Client) Attach(ctx context.Context, pid int, version string, visible bool, fn func(Command)) error {
	vis := "0"
	if visible {
		vis = "1"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		"http://hermesdesk"+PathAttach+"?pid="+strconv.Itoa(pid)+"&version="+url.QueryEscape(version)+"&visible="+vis, nil)
	if err != nil {
		return err
	}
	res, err := c.stream.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotRunning, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: attach: %s", ErrNotRunning, res.Status)
	}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		var cmd Command
		if json.Unmarshal(sc.Bytes(), &cmd) != nil || cmd.Op == "" {
			continue // a keep-alive or a newer op's garbage
		}
		fn(cmd)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("attach stream: %w", err)
	}
	return io.ErrUnexpectedEOF
}

// Newer reports whether version a is a later release than b ("0.10.0" >
// "0.9.1"). Anything not numeric (a "dev" build) is never newer, so a
// developer's build does not take over an installed one on its own.
func Newer(a, b string) bool {
	pa, oka := parse(a)
	pb, okb := parse(b)
	if !oka {
		return false
	}
	if !okb {
		return true
	}
	for i := 0; i < 3; i++ {
		if pa[i] != pb[i] {
			return pa[i] > pb[i]
		}
	}
	return false
}

func parse(v string) ([3]int, bool) {
	var out [3]int
	i := 0
	n, digits := 0, 0
	for _, c := range v + "." {
		switch {
		case c >= '0' && c <= '9':
			n, digits = n*10+int(c-'0'), digits+1
			if n > 1<<20 {
				return out, false
			}
		case c == '.' || c == '-' || c == '+':
			if digits == 0 || i >= 3 {
				return out, i == 3
			}
			out[i], i, n, digits = n, i+1, 0, 0
			if c != '.' {
				return out, i == 3
			}
		default:
			return out, false
		}
	}
	return out, i == 3
}
