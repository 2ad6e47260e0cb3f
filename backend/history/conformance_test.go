package history_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/history"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/treecopy"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// recorded is each format's root of files recorded from the real CLI
// (TestRecordHistories).
func recorded(f history.Format) string { return filepath.Join("testdata", f.Agent()) }

func discoverOne(t *testing.T, f history.Format, root string) string {
	t.Helper()
	files, err := f.Discover(root)
	if err != nil || len(files) != 1 {
		t.Fatalf("Discover(%s) = %v, %v; want the one recorded session", root, files, err)
	}
	return files[0]
}

// unversioned: formats whose files do not say which CLI version wrote them.
var unversioned = map[string]bool{"gemini": true, "hermes": true}

// sessionUsageOnly: formats that keep token counts per session, not per
// turn (Hermes Agent's sessions row); their turns carry none.
var sessionUsageOnly = map[string]bool{"hermes": true}

// TestConformance runs the same checks against every format (the
// restic-backends shape): a new importer passes these before it ships.
func TestConformance(t *testing.T) {
	for _, f := range history.Formats() {
		t.Run(f.Agent(), func(t *testing.T) {
			root := copyTree(t, recorded(f))
			file := discoverOne(t, f, root)

			t.Run("root from env and home", func(t *testing.T) {
				none := func(string) string { return "" }
				if got := f.Root(none, "/h"); !strings.HasPrefix(got, "/h/") {
					t.Errorf("Root without env = %q, want under the home dir", got)
				}
				moved := func(string) string { return "/moved" }
				if got := f.Root(moved, "/h"); got != "/moved" && !strings.HasPrefix(got, "/moved/") {
					t.Errorf("Root with its env var = %q, want /moved or under it", got)
				}
			})
			t.Run("missing root is no error", func(t *testing.T) {
				if files, err := f.Discover(filepath.Join(root, "nope")); err != nil || len(files) != 0 {
					t.Fatalf("Discover(missing) = %v, %v", files, err)
				}
			})
			_, isDB := f.(history.Database)
			onDisk := file // the session's file (a database format's ref names a row in it)
			if isDB {
				onDisk, _, _ = strings.Cut(file, "#")
			}
			t.Run("unrelated files are not sessions", func(t *testing.T) {
				junk := filepath.Join(filepath.Dir(onDisk), "notes.txt")
				if err := os.WriteFile(junk, []byte("hi\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(junk)
				discoverOne(t, f, root)
			})

			// Read-only: a file the app may not write is still read.
			if err := os.Chmod(onDisk, 0o444); err != nil {
				t.Fatal(err)
			}
			s, err := history.Read(f, file)
			if err != nil {
				t.Fatal(err)
			}
			t.Run("origin", func(t *testing.T) {
				o := s.Origin
				if o.Agent != f.Agent() || (o.Version == "" && !unversioned[f.Agent()]) || o.File != file || o.NativeID == "" {
					t.Fatalf("origin %+v", o)
				}
				if s.Workspace != "/work" || s.Title == "" || s.Model == "" || s.Started.IsZero() || s.Updated.Before(s.Started) {
					t.Fatalf("session %q %q %q %v %v", s.Workspace, s.Title, s.Model, s.Started, s.Updated)
				}
			})
			t.Run("the offer knows the id without reading it all", func(t *testing.T) {
				if got := history.NativeIDOf(f, file); got != s.Origin.NativeID {
					t.Fatalf("NativeIDOf = %q, Parse found %q", got, s.Origin.NativeID)
				}
			})
			t.Run("turns are runs", func(t *testing.T) { checkTurns(t, s) })
			t.Run("the resumed turn is in the same session", func(t *testing.T) {
				if len(s.Turns) != 3 {
					t.Fatalf("%d turns, want 3 (reasoning, tool, resumed recall)", len(s.Turns))
				}
				last := s.Turns[2].Events[0].Payload.(run.MessageUser)
				if last.Text != "[scenario:recall] third" {
					t.Fatalf("third turn starts with %+v", last)
				}
			})
			t.Run("a tool call is a tool card", func(t *testing.T) {
				var st run.ToolStarted
				var done run.ToolDone
				for _, e := range s.Turns[1].Events {
					switch p := e.Payload.(type) {
					case run.ToolStarted:
						st = p
					case run.ToolDone:
						done = p
					}
				}
				if st.Kind != "execute" || !strings.Contains(st.Title, "echo hello") || done.ToolCallID != st.ToolCallID ||
					done.Status != "completed" || !strings.Contains(done.Output, "hello") {
					t.Fatalf("tool.started %+v, tool.done %+v", st, done)
				}
			})
			t.Run("reasoning and usage", func(t *testing.T) {
				types := eventTypes(s.Turns[0])
				if !strings.Contains(types, "reasoning.delta reasoning.done") {
					t.Fatalf("first turn %s", types)
				}
				d := s.Turns[0].Events[len(s.Turns[0].Events)-1].Payload.(run.Done)
				if (d.Usage == nil || d.Usage.OutputTokens == 0) && !sessionUsageOnly[f.Agent()] {
					t.Fatalf("done %+v", d)
				}
			})
			t.Run("signed or encrypted reasoning stays out of view", func(t *testing.T) {
				b, _ := json.Marshal(s.Turns)
				for _, w := range []string{"signature", "encrypted_content", `"fake"`} {
					if bytes.Contains(b, []byte(w)) {
						t.Fatalf("events carry %s", w)
					}
				}
			})
			t.Run("same file, same session", func(t *testing.T) {
				again, err := history.Read(f, file)
				if err != nil || !reflect.DeepEqual(jsonOf(t, s), jsonOf(t, again)) {
					t.Fatalf("second read differs (%v)", err)
				}
			})

			if isDB {
				t.Run("the database is only read", func(t *testing.T) {
					b, _ := os.ReadFile(onDisk)
					if _, err := history.Read(f, file); err != nil {
						t.Fatal(err)
					}
					if after, _ := os.ReadFile(onDisk); !bytes.Equal(b, after) {
						t.Fatal("reading changed the database")
					}
					if _, err := history.Read(f, onDisk+"#nope"); !errors.Is(err, history.ErrNotSession) {
						t.Fatalf("an unknown session: %v", err)
					}
				})
				return // the line checks below are for line formats
			}
			orig, _ := os.ReadFile(file)
			t.Run("a half-written last line waits for its end", func(t *testing.T) {
				p := filepath.Join(t.TempDir(), filepath.Base(file))
				half := append(append([]byte{}, orig...), []byte(`{"type":"user","message":{"role":"user","content":"half`)...)
				if err := os.WriteFile(p, half, 0o644); err != nil {
					t.Fatal(err)
				}
				got, err := history.Read(f, p)
				if err != nil || got.Offset != int64(len(orig)) || len(got.Turns) != len(s.Turns) || len(got.Skipped) != 0 {
					t.Fatalf("offset %d (want %d), %d turns, skipped %v, %v", got.Offset, len(orig), len(got.Turns), got.Skipped, err)
				}
			})
			t.Run("a damaged line is skipped and counted", func(t *testing.T) {
				p := filepath.Join(t.TempDir(), filepath.Base(file))
				lines := bytes.SplitAfter(orig, []byte("\n"))
				var b []byte
				for i, l := range lines {
					b = append(b, l...)
					if i == 1 {
						b = append(b, "{\"type\":\"user\",\"mess\x00\n"...)
					}
				}
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
				got, err := history.Read(f, p)
				if err != nil || len(got.Skipped) != 1 || got.Skipped[0].Line != 3 || len(got.Turns) != len(s.Turns) {
					t.Fatalf("skipped %v, %d turns, %v", got.Skipped, len(got.Turns), err)
				}
			})
			t.Run("an empty file is a session with no turns", func(t *testing.T) {
				got, err := f.Parse(strings.NewReader(""), "empty.jsonl")
				if err != nil || len(got.Turns) != 0 {
					t.Fatalf("%+v, %v", got, err)
				}
			})
		})
	}
}

// checkTurns: each turn is what one live run writes: message.user first,
// done last, known event types, every tool started is done.
func checkTurns(t *testing.T, s *history.Session) {
	t.Helper()
	for i, tn := range s.Turns {
		ev := tn.Events
		if len(ev) < 2 || ev[0].Type != run.EventMessageUser || ev[len(ev)-1].Type != run.EventDone {
			t.Fatalf("turn %d: %s", i, eventTypes(tn))
		}
		open := map[string]bool{}
		for _, e := range ev {
			if !e.Type.Known() {
				t.Fatalf("turn %d: unknown event type %q", i, e.Type)
			}
			if b, err := json.Marshal(e.Payload); err != nil || b[0] != '{' {
				t.Fatalf("turn %d: %s payload %s %v", i, e.Type, b, err)
			}
			switch p := e.Payload.(type) {
			case run.ToolStarted:
				open[p.ToolCallID] = true
			case run.ToolDone:
				if !open[p.ToolCallID] {
					t.Fatalf("turn %d: tool.done for %q never started", i, p.ToolCallID)
				}
				delete(open, p.ToolCallID)
			}
		}
		if len(open) != 0 {
			t.Fatalf("turn %d: tools never done: %v", i, open)
		}
	}
}

func eventTypes(tn history.Turn) string {
	var s []string
	for _, e := range tn.Events {
		s = append(s, string(e.Type))
	}
	return strings.Join(s, " ")
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGolden compares each recorded session, read, with its golden file
// (go test -run TestGolden -args -update rewrites them; review the diff).
func TestGolden(t *testing.T) {
	for _, f := range history.Formats() {
		t.Run(f.Agent(), func(t *testing.T) {
			root := recorded(f)
			file := discoverOne(t, f, root)
			s, err := history.Read(f, file)
			if err != nil {
				t.Fatal(err)
			}
			got := jsonOf(t, s) + "\n"
			golden := filepath.Join("testdata", f.Agent()+".golden.json")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Fatalf("%s differs from the reading (run with -args -update and review):\n%s", golden, got)
			}
		})
	}
}

// copyTree copies the recorded root into a temp dir the test may change.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	treecopy.Into(t, src, dst)
	return dst
}
