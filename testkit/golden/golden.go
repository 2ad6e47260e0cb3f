// Package golden keeps a test's output file in testdata equal to what the
// test computes: written with -update, a failure when stale.
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check compares got with the file at path; with update it writes the file first.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date (run the test with -update after checking the change)", path)
	}
}

// Event is one normalized event as the frontend's fold receives its type and payload.
type Event struct {
	Type    string
	Payload any
}

// JSONL encodes events one {"type","payload"} object a line.
func JSONL(t testing.TB, events []Event) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, e := range events {
		p, err := json.Marshal(e.Payload)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "{\"type\":%q,\"payload\":%s}\n", e.Type, p)
	}
	return b.Bytes()
}

// Transcripts maps every recorded native transcript in testdata/*.jsonl
// (not the *.events.jsonl it writes) through events and keeps
// testdata/<name>.events.jsonl equal to the result, for the frontend's
// fold test (frontend/src/store/transcripts.test.ts). Fewer than min
// transcripts is a failure (one gone missing).
func Transcripts(t *testing.T, update bool, min int, events func(t *testing.T, path string) []byte) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".events.jsonl") {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			Check(t, strings.TrimSuffix(path, ".jsonl")+".events.jsonl", events(t, path), update)
		})
	}
	if n < min {
		t.Fatalf("only %d transcripts in testdata, want at least %d", n, min)
	}
}
