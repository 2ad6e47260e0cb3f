package control

import (
	"errors"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

func TestWarmRecordRoundTripAndRemoval(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadWarm(dir, "ses_1"); !errors.Is(err, ErrNoWarm) {
		t.Fatalf("no record: %v", err)
	}
	w := Warm{ProtocolVersion: ProtocolVersion, SessionID: "ses_1", Pid: 42, Socket: "/s", Token: "t", Fingerprint: "f"}
	if err := WriteWarm(dir, w); err != nil {
		t.Fatal(err)
	}
	got, err := ReadWarm(dir, "ses_1")
	if err != nil || got.Pid != 42 || got.Bootstrap().Token != "t" || got.Bootstrap().Socket != "/s" {
		t.Fatalf("read %+v, %v", got, err)
	}
	RemoveWarm(dir, "ses_1", 7) // another shim's: stays
	if _, err := ReadWarm(dir, "ses_1"); err != nil {
		t.Fatalf("a record of pid 42 was removed by pid 7: %v", err)
	}
	RemoveWarm(dir, "ses_1", 42)
	if _, err := ReadWarm(dir, "ses_1"); !errors.Is(err, ErrNoWarm) {
		t.Fatalf("after removal: %v", err)
	}
}

func TestFingerprintCoversHowTheAgentStarts(t *testing.T) {
	base := Spec{RunID: "r1", SessionID: "s", Agent: "a", Workspace: "/w", Model: "m", DataDir: "/d", DBPath: "/d/db",
		Config: adapter.Config{Env: []string{"A=1"}, Options: map[string]string{"x": "1"}}}
	same := base
	same.RunID, same.Message, same.NativeSessionID = "r2", "another message", "n"
	if Fingerprint(base) != Fingerprint(same) {
		t.Fatal("per-run fields changed the fingerprint")
	}
	for name, edit := range map[string]func(*Spec){
		"agent":     func(s *Spec) { s.Agent = "b" },
		"workspace": func(s *Spec) { s.Workspace = "/x" },
		"model":     func(s *Spec) { s.Model = "n" },
		"profile":   func(s *Spec) { s.Profile = "p" },
		"env":       func(s *Spec) { s.Config.Env = []string{"A=2"} },
		"options":   func(s *Spec) { s.Config.Options = map[string]string{"x": "2"} },
		"api key":   func(s *Spec) { s.Config.APIKey = "k" },
	} {
		s := base
		s.Config.Env = append([]string(nil), base.Config.Env...)
		edit(&s)
		if Fingerprint(s) == Fingerprint(base) {
			t.Errorf("a different %s kept the fingerprint", name)
		}
	}
}

func TestWarmIdle(t *testing.T) {
	for ms, want := range map[int64]time.Duration{0: DefaultWarmIdle, -1: 0, 250: 250 * time.Millisecond} {
		if got := (Spec{WarmIdleMs: ms}).WarmIdle(); got != want {
			t.Errorf("WarmIdleMs %d: %v, want %v", ms, got, want)
		}
	}
}

func TestParseRequestKnowsWarmOps(t *testing.T) {
	for _, op := range []Op{OpNextRun, OpStop} {
		if _, err := ParseRequest([]byte(`{"op":"` + string(op) + `","token":"t"}`)); err != nil {
			t.Errorf("%s: %v", op, err)
		}
	}
}
