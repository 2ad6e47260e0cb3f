package tray

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/testkit/dbustest"
	"github.com/hermesdesk/hermesdesk/testkit/trayhost"
)

func TestDefaultMenu(t *testing.T) {
	tests := []struct {
		name       string
		state      State
		wantLabels []string
		wantTip    string
		wantIcon   string
		wantCheck  bool
	}{
		{"idle, no login entry support", State{}, []string{LabelOpen, "", LabelQuit}, Title, "idle", false},
		{"idle, autostart on", State{Autostart: true, AutostartSupported: true},
			[]string{LabelOpen, LabelAutostart, "", LabelQuit}, Title, "idle", true},
		{"two running", State{Running: 2, AutostartSupported: true},
			[]string{LabelOpen, LabelAutostart, "", LabelQuit}, "Hermes Desk — 2 running", "running", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := DefaultMenu(tt.state)
			var labels []string
			checked := false
			for _, it := range m.Items {
				labels = append(labels, it.Label)
				if it.ID == IDAutostart {
					checked = it.Checked
				}
			}
			if !slices.Equal(labels, tt.wantLabels) || m.Tooltip != tt.wantTip || m.Icon != tt.wantIcon || checked != tt.wantCheck {
				t.Fatalf("menu = %+v", m)
			}
		})
	}
}

func TestSameShape(t *testing.T) {
	base := DefaultMenu(State{AutostartSupported: true}).Items
	tests := []struct {
		name string
		b    []Item
		want bool
	}{
		{"check mark only", DefaultMenu(State{AutostartSupported: true, Autostart: true}).Items, true},
		{"label only", func() []Item { c := slices.Clone(base); c[0].Label = "Show"; return c }(), true},
		{"item removed", DefaultMenu(State{}).Items, false},
		{"submenu added", func() []Item { c := slices.Clone(base); c[0].Children = []Item{{ID: "x"}}; return c }(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameShape(base, tt.b); got != tt.want {
				t.Fatalf("sameShape = %v", got)
			}
		})
	}
}

// The test binary doubles as a process showing the tray (the library is a
// process-wide singleton), on the private bus the test gives it: it shows
// DefaultMenu, prints each click's ID, and on an input line N shows the
// menu for N running runs with autostart toggled on odd N; "attention 1"
// and "attention 0" show a run that needs the person, or not; "churn K"
// rebuilds the menu K times with runs coming and going, then prints
// "churned".
func TestMain(m *testing.M) {
	if os.Getenv("TRAY_TEST_PROC") == "1" {
		trayProc()
		return
	}
	os.Exit(m.Run())
}

func trayProc() {
	icon := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x04\x00\x09\xfb\x03\xfd\xe3U\xf2\x9c\x00\x00\x00\x00IEND\xaeB`\x82")
	tr := New(nil, icon, func(id string) { fmt.Println(id) }, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	tr.Start()
	tr.Set(DefaultMenu(State{AutostartSupported: true}))
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var k int
		if _, err := fmt.Sscanf(sc.Text(), "attention %d", &k); err == nil {
			m := DefaultMenu(State{Running: 1, AutostartSupported: true})
			m.NeedsAttention = k == 1
			tr.Set(m)
			continue
		}
		if _, err := fmt.Sscanf(sc.Text(), "churn %d", &k); err == nil {
			for i := range k {
				tr.Set(churnMenu(i))
			}
			tr.Set(DefaultMenu(State{AutostartSupported: true}))
			fmt.Println("churned")
			continue
		}
		var n int
		fmt.Sscan(sc.Text(), &n)
		tr.Set(DefaultMenu(State{Running: n, AutostartSupported: true, Autostart: n%2 == 1}))
	}
	tr.Stop()
}

// churnMenu is the i-th menu of a burst: 0–4 runs, each with Open session
// and a destructive Stop run, and Quit as a submenu while runs are active.
func churnMenu(i int) Menu {
	var items []Item
	runs := i % 5
	for r := range runs {
		items = append(items, Item{Label: fmt.Sprintf("run %d", r), Children: []Item{
			{ID: fmt.Sprintf("open-session:s%d", r), Label: "Open session"},
			{ID: fmt.Sprintf("stop-run:r%d", r), Label: "Stop run", Destructive: true},
		}})
	}
	items = append(items, Item{ID: IDOpen, Label: LabelOpen},
		Item{ID: IDAutostart, Label: LabelAutostart, Checkbox: true, Checked: i%2 == 0, Destructive: true}, Item{Separator: true})
	if runs > 0 {
		items = append(items, Item{Label: LabelQuit, Children: []Item{
			{ID: "quit-keep", Label: "Keep", Destructive: true}, {ID: "quit-stop", Label: "Stop and quit", Destructive: true}}})
	} else {
		items = append(items, Item{ID: IDQuit, Label: LabelQuit, Destructive: true})
	}
	return Menu{Icon: "idle", Tooltip: fmt.Sprint(i), Items: items}
}

func TestTrayOverDBus(t *testing.T) {
	tp := startTrayProc(t)
	clicks, stdin, host, it := tp.clicks, tp.stdin, tp.host, tp.item
	expect := func(want string) {
		t.Helper()
		select {
		case got := <-clicks:
			if got != want {
				t.Fatalf("click %q, want %q", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no click; want %q", want)
		}
	}

	must(t, host.Click(it, LabelOpen))
	expect(IDOpen)
	must(t, host.Activate(it)) // a left click on the icon opens too
	expect(IDOpen)
	must(t, host.Click(it, LabelAutostart))
	expect(IDAutostart)

	// A new state updates the check mark in place; a click right after
	// still reaches the same item.
	io.WriteString(stdin, "1\n")
	waitEntry(t, host, it, LabelAutostart, func(e trayhost.MenuEntry) bool { return e.Toggle == "checkmark" && e.Checked })
	must(t, host.Click(it, LabelAutostart))
	expect(IDAutostart)
	must(t, host.Click(it, LabelQuit))
	expect(IDQuit)

	stdin.Close()
	if err := host.WaitGone(it, 10*time.Second); err != nil {
		t.Fatal(err)
	}
}

// TestTrayRebuildsClickNothing: rebuilding the menu hundreds of times
// while runs come and go acts on nothing — the reset closes every item's
// channel, and a closed channel is not a click (issue 21 item 2: the tray
// stopped every run, quit and toggled Start at login by itself).
func TestTrayRebuildsClickNothing(t *testing.T) {
	tp := startTrayProc(t)
	io.WriteString(tp.stdin, "churn 400\n")
	var spurious []string
	wait := func(want string) {
		t.Helper()
		for {
			select {
			case got := <-tp.clicks:
				if got == want {
					return
				}
				spurious = append(spurious, got)
			case <-time.After(30 * time.Second):
				t.Fatalf("never saw %q; clicks: %v", want, spurious)
			}
		}
	}
	wait("churned")
	// A real click after the burst: everything the burst queued is out
	// before it, and the menu still works.
	waitEntry(t, tp.host, tp.item, LabelOpen, func(trayhost.MenuEntry) bool { return true })
	must(t, tp.host.Click(tp.item, LabelOpen))
	wait(IDOpen)
	if len(spurious) > 0 {
		t.Fatalf("%d actions nobody clicked, e.g. %v", len(spurious), spurious[:min(len(spurious), 8)])
	}
}

// TestTrayNeedsAttention: while a run waits for the person the item's
// StatusNotifierItem Status is NeedsAttention (hosts highlight it), and
// Active again once it does not.
func TestTrayNeedsAttention(t *testing.T) {
	tp := startTrayProc(t)
	status := func(want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			v, err := tp.host.Property(tp.item, "Status")
			if err == nil && v.Value() == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("Status %v (%v), want %q", v, err, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	status("Active")
	io.WriteString(tp.stdin, "attention 1\n")
	status("NeedsAttention")
	io.WriteString(tp.stdin, "attention 0\n")
	status("Active")
}

type trayProcess struct {
	clicks <-chan string
	stdin  io.WriteCloser
	host   *trayhost.Host
	item   trayhost.Item
}

// startTrayProc starts the test binary as a tray process on a private bus
// with a test tray host, and waits for its menu.
func startTrayProc(t *testing.T) trayProcess {
	t.Helper()
	bus := dbustest.Start(t)
	host, err := trayhost.New(bus)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// fyne.io/systray v1.12.2 has a data race of its own (GetLayout reads
	// menuVersion while refresh writes it): reports go to files, and only
	// races involving this project's code fail the test.
	raceLog := filepath.Join(t.TempDir(), "race")
	cmd.Env = append(os.Environ(), "TRAY_TEST_PROC=1", "DBUS_SESSION_BUS_ADDRESS="+bus, "GORACE=exitcode=0 log_path="+raceLog)
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); checkRaces(t, raceLog) })
	clicks := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			clicks <- sc.Text()
		}
		close(clicks)
	}()
	it, err := host.WaitItem(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	waitEntry(t, host, it, LabelQuit, func(trayhost.MenuEntry) bool { return true }) // the menu is built
	return trayProcess{clicks: clicks, stdin: stdin, host: host, item: it}
}

func waitEntry(t *testing.T, h *trayhost.Host, it trayhost.Item, label string, ok func(trayhost.MenuEntry) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		e, err := h.Entry(it, label)
		if err == nil && ok(e) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("entry %q never matched: %+v %v", label, e, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func checkRaces(t *testing.T, prefix string) {
	files, _ := filepath.Glob(prefix + ".*")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, report := range strings.Split(string(data), "WARNING: DATA RACE")[1:] {
			if strings.Contains(report, "github.com/hermesdesk/") {
				t.Errorf("data race in the tray:\n%s", report)
			}
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestDispatchDropsStaleDestructive: a click the host delivers on a
// destructive item of a menu that was replaced since is dropped; opening
// a window from it still works, and a closed channel is never a click.
func TestDispatchDropsStaleDestructive(t *testing.T) {
	clicks := make(chan string, 8)
	tr := New(nil, nil, func(id string) { clicks <- id }, slog.New(slog.DiscardHandler))
	defer tr.Stop()
	stop, open := make(chan struct{}), make(chan struct{})
	tr.mu.Lock()
	tr.gen.Store(1)
	tr.watching = []watched{{id: "stop-run:r1", destructive: true, gen: 1, ch: stop}, {id: "open-session:s1", gen: 1, ch: open}}
	tr.mu.Unlock()
	tr.rewatch <- struct{}{}

	stop <- struct{}{} // on the menu shown: acts
	if got := <-clicks; got != "stop-run:r1" {
		t.Fatalf("click %q", got)
	}
	tr.gen.Store(2) // the menu was rebuilt
	stop <- struct{}{}
	close(stop)
	open <- struct{}{} // taken after the two above: the loop is sequential
	if got := <-clicks; got != "open-session:s1" {
		t.Fatalf("a stale Stop run acted: %q", got)
	}
	select {
	case got := <-clicks:
		t.Fatalf("unexpected click %q", got)
	default:
	}
}
