package contract

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The drift check: the generated files in the repository are what the Go
// types generate now. A Go change to a wire type fails here until
// `make contract` is run and the frontend compiles against the result.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for path, want := range Files() {
		got, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(path)))
		if err != nil {
			t.Fatalf("%v (run: make contract)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run make contract", path)
		}
	}
}

// Every value of each closed set reaches the TypeScript, so the frontend
// cannot meet a status or code it has no name for.
func TestWireCarriesEveryValue(t *testing.T) {
	ts := string(wire())
	var want []string
	for _, s := range run.Statuses {
		if !s.Valid() {
			t.Errorf("run.Statuses holds %q, which Status.Valid refuses", s)
		}
		want = append(want, string(s))
	}
	for _, c := range run.ErrorCodes {
		want = append(want, string(c))
	}
	for _, w := range run.WatchTypes {
		want = append(want, string(w))
	}
	for _, v := range want {
		if !strings.Contains(ts, `"`+v+`"`) {
			t.Errorf("wire.gen.ts lacks %q", v)
		}
	}
	for _, s := range []string{"queued", "running", "awaiting_approval", "awaiting_clarify", "cancelling", "paused",
		"completed", "failed", "cancelled", "interrupted"} {
		if !run.Status(s).Valid() {
			continue
		}
		found := false
		for _, l := range run.Statuses {
			found = found || string(l) == s
		}
		if !found {
			t.Errorf("run.Statuses misses the valid status %q", s)
		}
	}
	for _, c := range run.StartFailureCodes {
		found := false
		for _, l := range run.ErrorCodes {
			found = found || l == c
		}
		if !found {
			t.Errorf("StartFailureCodes holds %q, which ErrorCodes lacks", c)
		}
	}
}

// A field's TypeScript follows its json tag: omitempty and pointers are
// optional, embedded structs flatten, times are strings.
func TestTSTypeFollowsJSONTags(t *testing.T) {
	type inner struct {
		A string `json:"a"`
		Z int    `json:"z"` // hidden by sample.Z
		Y int    `json:"y"` // hidden and never sent
	}
	type sample struct {
		inner
		Z      string            `json:"z"`
		B      *int              `json:"b"`
		C      []string          `json:"c,omitempty"`
		D      map[string]bool   `json:"d"`
		E      run.Status        `json:"e"`
		F      string            `json:"-"`
		G      []run.Status      `json:"g"`
		H      struct{ X int }   `json:"h"`
		I      run.ErrorCode     `json:"i,omitempty"`
		J      map[string][]byte `json:"-,"`
		Y      *struct{}         `json:"y,omitempty"`
		hidden string
	}
	w := newTSWriter()
	union(w, "RunStatus", "", run.Statuses)
	got := strings.Join(w.fields(typeOf[sample]()), " ")
	want := `a: string; z: string; b?: number; c?: string[]; d: Record<string, boolean>; e: RunStatus; g: RunStatus[]; h: { X: number; }; i?: string; -: Record<string, string>;`
	if got != want {
		t.Errorf("fields:\n got %s\nwant %s", got, want)
	}
}
