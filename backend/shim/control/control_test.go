package control

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

func validSpec(dir string) Spec {
	return Spec{
		RunID: "run_1", SessionID: "ses_1", Agent: "demo", DataDir: dir, DBPath: filepath.Join(dir, "db"),
		Message: "hi", Config: adapter.Config{APIKey: "secret"}, CreatedAt: time.Unix(1, 0).UTC(),
	}
}

func TestSpecValidate(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		modify func(*Spec)
		ok     bool
	}{
		{"valid", func(*Spec) {}, true},
		{"no run id", func(s *Spec) { s.RunID = "" }, false},
		{"no session", func(s *Spec) { s.SessionID = "" }, false},
		{"no agent", func(s *Spec) { s.Agent = "" }, false},
		{"relative data dir", func(s *Spec) { s.DataDir = "rel" }, false},
		{"no db", func(s *Spec) { s.DBPath = "" }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := validSpec(dir)
			tc.modify(&s)
			if err := s.Validate(); (err == nil) != tc.ok {
				t.Fatalf("Validate() = %v, ok %v", err, tc.ok)
			}
		})
	}
}

func TestSpecRoundTripIsPrivate(t *testing.T) {
	dir := t.TempDir()
	s := validSpec(dir)
	s.CancelGraceMs = 1500
	path, err := WriteSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "runs", "run_1", SpecFile) {
		t.Fatalf("spec at %s", path)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("spec mode %v, %v; want 0600 (it may hold an API key)", st.Mode(), err)
	}
	if st, _ := os.Stat(filepath.Dir(path)); st.Mode().Perm() != 0o700 {
		t.Fatalf("run dir mode %v", st.Mode())
	}
	got, err := ReadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, s)
	}
	if got.CancelGrace() != 1500*time.Millisecond {
		t.Fatalf("grace %v", got.CancelGrace())
	}
	if (Spec{}).CancelGrace() != 5*time.Second {
		t.Fatal("default grace is not 5 s")
	}
	if _, err := WriteSpec(Spec{}); err == nil {
		t.Fatal("an invalid spec was written")
	}
}

func TestBootstrap(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadBootstrap(dir, "run_x"); !errors.Is(err, ErrNoBootstrap) {
		t.Fatalf("missing bootstrap: %v", err)
	}
	b := Bootstrap{ProtocolVersion: ProtocolVersion, RunID: "run_x", Pid: 42, Socket: "/s", Token: "t", AgentPid: 43, StartTime: time.Unix(2, 0).UTC()}
	os.MkdirAll(RunDir(dir, "run_x"), 0o700)
	if err := WriteJSONAtomic(filepath.Join(RunDir(dir, "run_x"), BootstrapFile), b); err != nil {
		t.Fatal(err)
	}
	got, err := ReadBootstrap(dir, "run_x")
	if err != nil || got != b {
		t.Fatalf("got %+v, %v", got, err)
	}
	// No temp files are left behind by the atomic write.
	entries, _ := os.ReadDir(RunDir(dir, "run_x"))
	if len(entries) != 1 {
		t.Fatalf("run dir holds %d entries", len(entries))
	}
}

func TestLockExcludes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "lock")
	l, err := TryLock(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryLock(p); !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock: %v, want ErrLocked", err)
	}
	if locked, err := IsLocked(p); err != nil || !locked {
		t.Fatalf("IsLocked = %v, %v", locked, err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l.Unlock() // twice is fine
	if locked, _ := IsLocked(p); locked {
		t.Fatal("still locked after Unlock")
	}
	l2, err := TryLock(p)
	if err != nil {
		t.Fatal(err)
	}
	l2.Unlock()
}

func TestTailFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	os.WriteFile(p, []byte("first line\nsecond line\nthird\n"), 0o600)
	if got := TailFile(p, 1000); got != "first line\nsecond line\nthird\n" {
		t.Fatalf("whole: %q", got)
	}
	if got := TailFile(p, 14); got != "third\n" {
		t.Fatalf("tail starts mid-line: %q", got)
	}
	if got := TailFile(filepath.Join(t.TempDir(), "none"), 10); got != "" {
		t.Fatalf("missing file: %q", got)
	}
}

func TestParseRequest(t *testing.T) {
	tests := []struct {
		line string
		err  error
		op   Op
	}{
		{`{"id":1,"token":"t","op":"cancel"}`, nil, OpCancel},
		{`{"id":2,"token":"t","op":"approval","approval_id":"a","choice":"allow"}`, nil, OpApproval},
		{`{"id":3,"token":"t","op":"subscribe","after_seq":7}`, nil, OpSubscribe},
		{`{"id":4,"token":"t","op":"explode"}`, ErrUnknownOp, "explode"},
		{`{"id":5,"token":"t"}`, ErrUnknownOp, ""},
		{`not json`, ErrMalformed, ""},
		{`{"id":"one"}`, ErrMalformed, ""},
	}
	for _, tc := range tests {
		r, err := ParseRequest([]byte(tc.line))
		if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("%s: err %v, want %v", tc.line, err, tc.err)
		}
		if r.Op != tc.op {
			t.Errorf("%s: op %q", tc.line, r.Op)
		}
		if tc.err == ErrUnknownOp && r.Token != "t" {
			t.Errorf("%s: token lost on an unknown op", tc.line)
		}
	}
}

func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"token":"t","op":"cancel"}`,
		`{"id":2,"token":"t","op":"clarify","clarify_id":"c","answer":"red"}`,
		`{"op":"subscribe","after_seq":-1}`, `{}`, `[]`, `null`, `{"op":"\u0000"}`, strings.Repeat("{", 100),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := ParseRequest(line)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnknownOp) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		// A request that parses survives a round trip unchanged.
		again, err := ParseRequest(mustJSON(t, r))
		if err != nil || again != r {
			t.Fatalf("round trip: %+v → %+v, %v", r, again, err)
		}
	})
}
