package app

import (
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"

	"github.com/hermesdesk/hermesdesk/app/trayproto"
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

// fakeAutostart is an in-memory login entry; failWith makes writes fail.
type fakeAutostart struct {
	on       bool
	failWith error
}

func (f *fakeAutostart) Enabled() (bool, error) { return f.on, nil }
func (f *fakeAutostart) Enable() error {
	if f.failWith != nil {
		return f.failWith
	}
	f.on = true
	return nil
}
func (f *fakeAutostart) Disable() error {
	if f.failWith != nil {
		return f.failWith
	}
	f.on = false
	return nil
}
func (f *fakeAutostart) Location() string { return "memory" }

// fakeTray records what the shell told the tray.
type fakeTray struct{ sent []trayproto.Msg }

func (f *fakeTray) Send(m trayproto.Msg) { f.sent = append(f.sent, m) }

func newTestShell() (*shell, *fakeUI, *fakeAutostart, *fakeTray) {
	u, as, tr := &fakeUI{}, &fakeAutostart{}, &fakeTray{}
	s := &shell{logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ui: u.ui(), autostartMgr: as}
	s.attachTray(tr)
	return s, u, as, tr
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
			s, u, _, _ := newTestShell()
			s.setTrayAvailable(tt.tray)
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
	s, u, _, _ := newTestShell()
	s.setTrayAvailable(true)
	s.quit()
	if s.beforeClose() {
		t.Fatal("close prevented after Quit: the app could never exit")
	}
	if !slices.Equal(u.calls, []string{"quit"}) {
		t.Fatalf("calls = %v", u.calls)
	}
}

func TestTrayMessages(t *testing.T) {
	s, u, as, tr := newTestShell()
	s.onTray(trayproto.Msg{Op: trayproto.OpOpen})
	s.onTray(trayproto.Msg{Op: trayproto.OpAutostart, Enabled: true})
	if !as.on {
		t.Fatal("autostart not enabled")
	}
	s.onTray(trayproto.Msg{Op: trayproto.OpAutostart, Enabled: false})
	s.onTray(trayproto.Msg{Op: trayproto.OpQuit})

	if !slices.Equal(u.calls, []string{"show", "quit"}) {
		t.Errorf("calls = %v", u.calls)
	}
	wantEvents := []event{{EventAutostartChanged, true}, {EventAutostartChanged, false}}
	if !slices.Equal(u.events, wantEvents) {
		t.Errorf("events = %v", u.events)
	}
	// The tray got the initial state, then the state on disk after each toggle.
	wantSent := []trayproto.Msg{
		{Op: trayproto.OpState},
		{Op: trayproto.OpState, Autostart: true},
		{Op: trayproto.OpState},
	}
	if !slices.Equal(tr.sent, wantSent) {
		t.Errorf("sent = %+v", tr.sent)
	}
}

func TestSetAutostartFailureReportsDiskState(t *testing.T) {
	s, _, as, _ := newTestShell()
	as.failWith = errors.New("EACCES /home/x/.config/autostart")
	on, err := s.setAutostart(true)
	if err == nil || on {
		t.Fatalf("got %v, %v", on, err)
	}
	if got := err.Error(); got != "could not change start at login; see the log for details" {
		t.Errorf("error leaks details or is unclear: %q", got)
	}
}

func TestAutostartUnsupported(t *testing.T) {
	s, u, _, _ := newTestShell()
	s.configure(nil, nil)
	if _, err := s.setAutostart(true); !errors.Is(err, errAutostartUnsupported) {
		t.Fatalf("err = %v", err)
	}
	s.onTray(trayproto.Msg{Op: trayproto.OpAutostart, Enabled: true})
	if len(u.events) != 0 {
		t.Errorf("events = %v", u.events)
	}
	d := &Desktop{shell: s, dataDir: func() string { return "/data" }}
	if info := d.Info(); info.AutostartSupported || info.DataDir != "/data" || info.Name != AppName {
		t.Errorf("info = %+v", info)
	}
}

func TestSecondInstance(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantShow   bool
		wantEvents []event
	}{
		{"no args reshows", nil, true, nil},
		{"args are passed on", []string{"/work/proj"}, true,
			[]event{{EventSecondInstance, SecondInstance{Args: []string{"/work/proj"}, Cwd: "/cwd"}}}},
		{"login entry firing again changes nothing", []string{"--background"}, false, nil},
		{"background with a path still opens it", []string{"--background", "/p"}, true,
			[]event{{EventSecondInstance, SecondInstance{Args: []string{"/p"}, Cwd: "/cwd"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, u, _, _ := newTestShell()
			s.secondInstance(tt.args, "/cwd")
			if got := slices.Contains(u.calls, "show"); got != tt.wantShow {
				t.Errorf("show = %v", got)
			}
			if len(u.events) != len(tt.wantEvents) {
				t.Fatalf("events = %+v", u.events)
			}
			for i := range tt.wantEvents {
				got, want := u.events[i], tt.wantEvents[i]
				gs, _ := got.data.(SecondInstance)
				ws := want.data.(SecondInstance)
				if got.name != want.name || !slices.Equal(gs.Args, ws.Args) || gs.Cwd != ws.Cwd {
					t.Errorf("event %d = %+v, want %+v", i, got, want)
				}
			}
		})
	}
}

func TestRunningCountReachesTray(t *testing.T) {
	s, _, _, tr := newTestShell()
	s.setRunning(3)
	if last := tr.sent[len(tr.sent)-1]; last.Running != 3 {
		t.Fatalf("last = %+v", last)
	}
}

func TestLogWriterSplitsLines(t *testing.T) {
	got := splitLines([]byte("a\n\nb\nc"))
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("got %q", got)
	}
}

func TestInstanceID(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	def := instanceID(env(nil))
	a := instanceID(env(map[string]string{"HERMESDESK_HOME": "/tmp/a"}))
	b := instanceID(env(map[string]string{"HERMESDESK_HOME": "/tmp/b"}))
	if def != "io.github.hermesdesk" || a == def || a == b || a != instanceID(env(map[string]string{"HERMESDESK_HOME": "/tmp/a"})) {
		t.Fatalf("ids: %q %q %q", def, a, b)
	}
}
