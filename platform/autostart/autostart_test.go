package autostart

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var entry = Entry{ID: "hermesdesk", Name: "Hermes Desk", Comment: "AI agent workbench",
	Exec: "/opt/Hermes Desk/hermesdesk", Args: []string{BackgroundFlag}}

func envFor(goos, home string, vars map[string]string, key RunKey) Env {
	return Env{GOOS: goos, Getenv: func(k string) string { return vars[k] },
		HomeDir: func() (string, error) { return home, nil }, RunKey: key}
}

// fakeKey is an in-memory Run key; err, when set, fails every call.
type fakeKey struct {
	vals map[string]string
	err  error
}

func (f *fakeKey) Get(n string) (string, error) {
	if f.err != nil {
		return "", f.err
	}
	v, ok := f.vals[n]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}
func (f *fakeKey) Set(n, v string) error {
	if f.err != nil {
		return f.err
	}
	f.vals[n] = v
	return nil
}
func (f *fakeKey) Delete(n string) error {
	if f.err != nil {
		return f.err
	}
	delete(f.vals, n)
	return nil
}

// TestRoundTrip drives every backend through off → on → on again → off and
// checks what lands on "disk".
func TestRoundTrip(t *testing.T) {
	home := t.TempDir()
	key := &fakeKey{vals: map[string]string{}}
	tests := []struct {
		goos     string
		vars     map[string]string
		location string
		check    func(t *testing.T)
	}{
		{"linux", nil, filepath.Join(home, ".config", "autostart", "hermesdesk.desktop"), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(home, ".config", "autostart", "hermesdesk.desktop"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), `Exec="/opt/Hermes Desk/hermesdesk" --background`+"\n") {
				t.Errorf("desktop file:\n%s", data)
			}
		}},
		{"freebsd", map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, "cfg")}, filepath.Join(home, "cfg", "autostart", "hermesdesk.desktop"), nil},
		{"darwin", nil, filepath.Join(home, "Library", "LaunchAgents", "hermesdesk.plist"), func(t *testing.T) {
			data, _ := os.ReadFile(filepath.Join(home, "Library", "LaunchAgents", "hermesdesk.plist"))
			if !strings.Contains(string(data), "<string>/opt/Hermes Desk/hermesdesk</string>") {
				t.Errorf("plist:\n%s", data)
			}
		}},
		{"windows", nil, `HKCU\Software\Microsoft\Windows\CurrentVersion\Run\hermesdesk`, func(t *testing.T) {
			if got := key.vals["hermesdesk"]; got != `"/opt/Hermes Desk/hermesdesk" --background` {
				t.Errorf("run value = %q", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.goos, func(t *testing.T) {
			m, err := NewFor(entry, envFor(tt.goos, home, tt.vars, key))
			if err != nil {
				t.Fatal(err)
			}
			if m.Location() != tt.location {
				t.Errorf("location = %q, want %q", m.Location(), tt.location)
			}
			wantEnabled(t, m, false)
			for range 2 { // enabling twice is harmless
				if err := m.Enable(); err != nil {
					t.Fatal(err)
				}
			}
			wantEnabled(t, m, true)
			if tt.check != nil {
				tt.check(t)
			}
			for range 2 { // and so is disabling twice
				if err := m.Disable(); err != nil {
					t.Fatal(err)
				}
			}
			wantEnabled(t, m, false)
		})
	}
}

func wantEnabled(t *testing.T, m Manager, want bool) {
	t.Helper()
	got, err := m.Enabled()
	if err != nil || got != want {
		t.Fatalf("Enabled() = %v, %v; want %v", got, err, want)
	}
}

func TestUnsupportedAndErrors(t *testing.T) {
	if _, err := NewFor(entry, envFor("plan9", "/h", nil, nil)); !errors.Is(err, ErrUnsupported) {
		t.Errorf("plan9: err = %v", err)
	}
	if _, err := NewFor(Entry{ID: "x"}, envFor("linux", "/h", nil, nil)); err == nil {
		t.Error("entry without Exec accepted")
	}
	boom := errors.New("access denied")
	m, _ := NewFor(entry, envFor("windows", "/h", nil, &fakeKey{err: boom}))
	if _, err := m.Enabled(); !errors.Is(err, boom) {
		t.Errorf("Enabled err = %v", err)
	}
	if err := m.Enable(); !errors.Is(err, boom) {
		t.Errorf("Enable err = %v", err)
	}
	// A config dir that is a file: the error surfaces, nothing panics.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	m, _ = NewFor(entry, envFor("linux", "/h", map[string]string{"XDG_CONFIG_HOME": file}, nil))
	if err := m.Enable(); err == nil {
		t.Error("Enable under a file succeeded")
	}
}

func TestDisabledMarkersInDesktopFile(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
	}{
		{"ours", string(DesktopFile(entry)), true},
		{"hidden", "[Desktop Entry]\nExec=x\nHidden=true\n", false},
		{"gnome off", "[Desktop Entry]\nX-GNOME-Autostart-enabled = false\n", false},
		{"other group ignored", "[Desktop Entry]\nExec=x\n[Desktop Action x]\nHidden=true\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := desktopFileEnabled([]byte(tt.body)); got != tt.want {
				t.Errorf("got %v", got)
			}
		})
	}
}

func TestExecLine(t *testing.T) {
	tests := []struct {
		prog string
		args []string
		want string
	}{
		{"/usr/bin/hermesdesk", []string{"--background"}, `/usr/bin/hermesdesk --background`},
		{"/opt/My App/hd", nil, `"/opt/My App/hd"`},
		{"/tmp/100%/hd", nil, `/tmp/100%%/hd`},
		// The Exec-level escape (\$) is then escaped again as a string value.
		{"/tmp/a$b/hd", nil, `"/tmp/a\\$b/hd"`},
		{`/tmp/q"uote/hd`, []string{""}, `"/tmp/q\\"uote/hd" ""`},
	}
	for _, tt := range tests {
		if got := ExecLine(tt.prog, tt.args...); got != tt.want {
			t.Errorf("ExecLine(%q, %q) = %s, want %s", tt.prog, tt.args, got, tt.want)
		}
	}
}

func TestWindowsCommandLine(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--background"}, `"C:\Apps\hd.exe" --background`},
		{[]string{"two words"}, `"C:\Apps\hd.exe" "two words"`},
		{[]string{`say "hi"`}, `"C:\Apps\hd.exe" "say \"hi\""`},
		{[]string{`C:\dir with space\`}, `"C:\Apps\hd.exe" "C:\dir with space\\"`},
		{[]string{""}, `"C:\Apps\hd.exe" ""`},
	}
	for _, tt := range tests {
		if got := WindowsCommandLine(`C:\Apps\hd.exe`, tt.args...); got != tt.want {
			t.Errorf("args %q: got %s, want %s", tt.args, got, tt.want)
		}
	}
}

func TestLaunchAgentPlistEscapes(t *testing.T) {
	e := entry
	e.Exec = "/Applications/A & B.app/Contents/MacOS/hd"
	got := string(LaunchAgentPlist(e))
	for _, want := range []string{"<string>/Applications/A &amp; B.app/Contents/MacOS/hd</string>",
		"<key>RunAtLoad</key>\n\t<true/>", "<string>--background</string>", "<key>Label</key>\n\t<string>hermesdesk</string>"} {
		if !strings.Contains(got, want) {
			t.Errorf("plist lacks %q:\n%s", want, got)
		}
	}
}

func TestProgramPath(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	os.WriteFile(real, nil, 0o755)
	link := filepath.Join(dir, "link")
	os.Symlink(real, link)
	exe := func() (string, error) { return link, nil }
	if got, _ := ProgramPath(func(string) string { return "" }, exe); got != real {
		t.Errorf("symlink not resolved: %q", got)
	}
	appimage := func(k string) string {
		if k == "APPIMAGE" {
			return "/home/a/Hermes.AppImage"
		}
		return ""
	}
	if got, _ := ProgramPath(appimage, exe); got != "/home/a/Hermes.AppImage" {
		t.Errorf("APPIMAGE ignored: %q", got)
	}
	if _, err := ProgramPath(func(string) string { return "" }, func() (string, error) { return "", errors.New("x") }); err == nil {
		t.Error("executable error swallowed")
	}
}
