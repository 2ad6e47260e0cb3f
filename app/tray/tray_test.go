package tray

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/app/trayproto"
	"github.com/hermesdesk/hermesdesk/testkit/dbustest"
	"github.com/hermesdesk/hermesdesk/testkit/trayhost"
)

// The test binary doubles as the helper process, as `hermesdesk tray` would
// run it, on the private bus the test gives it.
func TestMain(m *testing.M) {
	if os.Getenv("TRAY_TEST_HELPER") == "1" {
		log := slog.New(slog.NewTextHandler(os.Stderr, nil))
		os.Exit(Run(testIcon(), os.Stdin, os.Stdout, log))
	}
	os.Exit(m.Run())
}

// testIcon is a 1×1 PNG: the helper needs some icon bytes.
func testIcon() []byte {
	return []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x04\x00\x09\xfb\x03\xfd\xe3U\xf2\x9c\x00\x00\x00\x00IEND\xaeB`\x82")
}

type helperProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	msgs  chan trayproto.Msg
}

func startHelper(t *testing.T, bus string) *helperProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// fyne.io/systray v1.12.2 has a data race of its own (GetLayout reads
	// menuVersion while refresh writes it). Under -race the helper would exit
	// 66 for it, so race reports go to files and checkRaces fails the test
	// only for races that involve this project's code.
	raceLog := filepath.Join(t.TempDir(), "race")
	cmd.Env = append(os.Environ(), "TRAY_TEST_HELPER=1", "DBUS_SESSION_BUS_ADDRESS="+bus,
		"GORACE=exitcode=0 log_path="+raceLog)
	t.Cleanup(func() { checkRaces(t, raceLog) })
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &helperProc{cmd: cmd, stdin: stdin, msgs: make(chan trayproto.Msg, 16)}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	go func() {
		trayproto.Read(bufio.NewReader(stdout), func(m trayproto.Msg) { p.msgs <- m }, nil)
		close(p.msgs)
	}()
	return p
}

func (p *helperProc) expect(t *testing.T, want trayproto.Msg) {
	t.Helper()
	select {
	case got := <-p.msgs:
		if got != want {
			t.Fatalf("helper sent %+v, want %+v", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("helper sent nothing; want %+v", want)
	}
}

func (p *helperProc) send(t *testing.T, m trayproto.Msg) {
	b, _ := json.Marshal(m)
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
}

func waitChecked(t *testing.T, h *trayhost.Host, it trayhost.Item, want bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		e, err := h.Entry(it, LabelAutostart)
		if err == nil && e.Toggle == "checkmark" && e.Checked == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("checkbox never became %v: %+v %v", want, e, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestHelperMenuOverDBus(t *testing.T) {
	bus := dbustest.Start(t)
	host, err := trayhost.New(bus)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	p := startHelper(t, bus)

	it, err := host.WaitItem(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	menu, err := host.Menu(it)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, e := range menu {
		if e.Type != "separator" {
			labels = append(labels, e.Label)
		}
	}
	if len(labels) != 3 || labels[0] != LabelOpen || labels[1] != LabelAutostart || labels[2] != LabelQuit {
		t.Fatalf("menu = %+v", menu)
	}

	must(t, host.Click(it, LabelOpen))
	p.expect(t, trayproto.Msg{Op: trayproto.OpOpen})
	must(t, host.Activate(it))
	p.expect(t, trayproto.Msg{Op: trayproto.OpOpen})

	// The checkbox shows what the app says is on disk, and a click asks
	// for the opposite.
	must(t, host.Click(it, LabelAutostart))
	p.expect(t, trayproto.Msg{Op: trayproto.OpAutostart, Enabled: true})
	p.send(t, trayproto.Msg{Op: trayproto.OpState, Autostart: true, Running: 2})
	waitChecked(t, host, it, true)
	must(t, host.Click(it, LabelAutostart))
	p.expect(t, trayproto.Msg{Op: trayproto.OpAutostart, Enabled: false})

	must(t, host.Click(it, LabelQuit))
	p.expect(t, trayproto.Msg{Op: trayproto.OpQuit})

	// Closing stdin (the app went away) ends the helper cleanly and its
	// icon leaves the tray.
	p.stdin.Close()
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("helper exit: %v", err)
	}
	if err := host.WaitGone(it, 10*time.Second); err != nil {
		t.Fatal(err)
	}
}

func checkRaces(t *testing.T, prefix string) {
	files, _ := filepath.Glob(prefix + ".*")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, report := range strings.Split(string(data), "WARNING: DATA RACE")[1:] {
			if strings.Contains(report, "github.com/hermesdesk/") {
				t.Errorf("data race in the helper:\n%s", report)
			} else {
				t.Logf("ignored a data race inside a dependency (%d bytes of report)", len(report))
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
