package app

import (
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/core/coreapi"
)

// fakeUI records what the shell asked of the window.
type fakeUI struct {
	mu     sync.Mutex
	calls  []string
	events []event
}

type event struct {
	name string
	data any
}

func (f *fakeUI) rec(s string) func() {
	return func() { f.mu.Lock(); f.calls = append(f.calls, s); f.mu.Unlock() }
}

func (f *fakeUI) ui() ui {
	return ui{
		Show: f.rec("show"), Hide: f.rec("hide"), Minimise: f.rec("minimise"), Quit: f.rec("quit"),
		Emit:       func(n string, d any) { f.mu.Lock(); f.events = append(f.events, event{n, d}); f.mu.Unlock() },
		PickFolder: func(string) (string, error) { return "/picked", nil },
	}
}

// newTestShell is a visible window whose grace timers never fire by
// themselves (tests call graceUp) and whose core answers retire with ok.
func newTestShell(retireOK bool) (*shell, *fakeUI, *[]int64) {
	u := &fakeUI{}
	var asked []int64
	s := &shell{logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ui: u.ui(), visible: true, grace: time.Minute,
		retire:    func(seq int64) bool { asked = append(asked, seq); return retireOK },
		afterFunc: func(time.Duration, func()) *time.Timer { return time.NewTimer(time.Hour) },
	}
	return s, u, &asked
}

func TestBeforeClose(t *testing.T) {
	tests := []struct {
		name        string
		tray        bool
		quitting    bool
		wantPrevent bool
		wantCalls   []string
	}{
		{"tray: hide", true, false, true, []string{"hide"}},
		{"no tray: minimise", false, false, true, []string{"minimise"}},
		{"quitting: let it close", true, true, false, nil},
		{"quitting without tray", false, true, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, u, _ := newTestShell(true)
			s.onCommand(coreapi.Command{Seq: 1, Op: coreapi.OpHello, TrayAvailable: tt.tray})
			s.quitting = tt.quitting
			if got := s.beforeClose(); got != tt.wantPrevent {
				t.Errorf("prevent = %v", got)
			}
			if !slices.Equal(u.calls, tt.wantCalls) {
				t.Errorf("calls = %v, want %v", u.calls, tt.wantCalls)
			}
		})
	}
}

func TestQuitThenCloseIsAllowed(t *testing.T) {
	s, u, _ := newTestShell(true)
	s.onCommand(coreapi.Command{Seq: 1, Op: coreapi.OpHello, TrayAvailable: true})
	s.onCommand(coreapi.Command{Seq: 2, Op: coreapi.OpQuit})
	if s.beforeClose() {
		t.Fatal("close prevented after Quit: the window could never exit")
	}
	if !slices.Equal(u.calls, []string{"quit"}) {
		t.Fatalf("calls = %v", u.calls)
	}
}

// TestGrace: a hidden window asks the core to retire with the last
// command it acted on, exits only if the core agrees, and a show in
// between keeps it.
func TestGrace(t *testing.T) {
	tests := []struct {
		name      string
		retireOK  bool
		showAfter bool // a show arrives after hiding, before the grace ends
		wantAsk   []int64
		wantQuit  bool
	}{
		{"hidden past grace, core agrees: exit", true, false, []int64{3}, true},
		{"core refuses (a show on its way): stay", false, false, []int64{3}, false},
		{"shown again before grace: never asks", true, true, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, u, asked := newTestShell(tt.retireOK)
			s.onCommand(coreapi.Command{Seq: 1, Op: coreapi.OpHello, TrayAvailable: true})
			s.onCommand(coreapi.Command{Seq: 2, Op: coreapi.OpAutostart, Autostart: true})
			s.onCommand(coreapi.Command{Seq: 3, Op: coreapi.OpTray, TrayAvailable: true})
			s.beforeClose()
			if s.isVisible() {
				t.Fatal("visible after close")
			}
			if tt.showAfter {
				s.onCommand(coreapi.Command{Seq: 4, Op: coreapi.OpShow})
			}
			s.graceUp()
			if !slices.Equal(*asked, tt.wantAsk) {
				t.Errorf("retire asked with %v, want %v", *asked, tt.wantAsk)
			}
			if got := slices.Contains(u.calls, "quit"); got != tt.wantQuit {
				t.Errorf("quit = %v (calls %v)", got, u.calls)
			}
		})
	}
}

func TestCommands(t *testing.T) {
	tests := []struct {
		name       string
		cmds       []coreapi.Command
		wantCalls  []string
		wantEvents []event
	}{
		{"hello tells the autostart state", []coreapi.Command{{Seq: 1, Op: coreapi.OpHello, Autostart: true}}, nil,
			[]event{{EventAutostartChanged, true}}},
		{"show without a folder", []coreapi.Command{{Seq: 1, Op: coreapi.OpShow, Launch: &coreapi.Launch{}}}, []string{"show"}, nil},
		{"show with a folder passes it on", []coreapi.Command{{Seq: 1, Op: coreapi.OpShow, Launch: &coreapi.Launch{Args: []string{"proj"}, Cwd: "/home"}}},
			[]string{"show"}, []event{{EventSecondInstance, SecondInstance{Args: []string{"proj"}, Cwd: "/home"}}}},
		{"autostart changed", []coreapi.Command{{Seq: 1, Op: coreapi.OpAutostart}}, nil, []event{{EventAutostartChanged, false}}},
		{"quit", []coreapi.Command{{Seq: 1, Op: coreapi.OpQuit}}, []string{"quit"}, nil},
		{"an unknown op is ignored", []coreapi.Command{{Seq: 1, Op: "teleport"}}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, u, _ := newTestShell(true)
			for _, c := range tt.cmds {
				s.onCommand(c)
			}
			if !slices.Equal(u.calls, tt.wantCalls) {
				t.Errorf("calls = %v, want %v", u.calls, tt.wantCalls)
			}
			if len(u.events) != len(tt.wantEvents) {
				t.Fatalf("events = %+v, want %+v", u.events, tt.wantEvents)
			}
			for i, want := range tt.wantEvents {
				got := u.events[i]
				if gs, ok := got.data.(SecondInstance); ok {
					ws := want.data.(SecondInstance)
					if got.name != want.name || !slices.Equal(gs.Args, ws.Args) || gs.Cwd != ws.Cwd {
						t.Errorf("event %d = %+v, want %+v", i, got, want)
					}
				} else if got != want {
					t.Errorf("event %d = %+v, want %+v", i, got, want)
				}
			}
		})
	}
}

// TestSeqRestartsWithANewCore: after a reconnect the new core numbers its
// commands from 1; the window must not keep the old core's higher number
// (its retire would always be accepted, losing a show).
func TestSeqRestartsWithANewCore(t *testing.T) {
	s, _, asked := newTestShell(true)
	s.onCommand(coreapi.Command{Seq: 1, Op: coreapi.OpHello, TrayAvailable: true})
	for i := int64(2); i < 10; i++ {
		s.onCommand(coreapi.Command{Seq: i, Op: coreapi.OpTray, TrayAvailable: true})
	}
	s.onCommand(coreapi.Command{Seq: 1, Op: coreapi.OpHello, TrayAvailable: true})
	s.beforeClose()
	s.graceUp()
	if !slices.Equal(*asked, []int64{1}) {
		t.Fatalf("retire asked with %v, want [1]", *asked)
	}
}
