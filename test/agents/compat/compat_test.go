package compat

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMergeReplacesRowsOfTheSameAgent(t *testing.T) {
	old := []Row{{Agent: "qwen", Version: "0.15.9"}, {Agent: "kimi", Version: "1.50.0"}}
	fresh := []Row{{Agent: "qwen", Version: "0.15.10"}, {Agent: "opencode", Version: "1.18.33"}}
	got := Merge(old, fresh)
	want := []Row{{Agent: "kimi", Version: "1.50.0"}, {Agent: "opencode", Version: "1.18.33"}, {Agent: "qwen", Version: "0.15.10"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Merge = %+v, want %+v", got, want)
	}
}

func TestJoinSeesWhatEitherSaw(t *testing.T) {
	warm := Row{Agent: "gemini", Name: "Gemini CLI", Version: "0.61.0", ToolRan: true, Warm: true, Plan: true, Approval: "exact command"}
	cold := Row{Agent: "gemini", Name: "Gemini CLI", Resume: true, Usage: true}
	got := Join(warm, cold)
	want := Row{Agent: "gemini", Name: "Gemini CLI", Version: "0.61.0", ToolRan: true, Warm: true, Resume: true, Plan: true,
		Usage: true, Approval: "exact command"}
	if got != want {
		t.Fatalf("Join = %+v, want %+v", got, want)
	}
	// Whichever test of the two ran first.
	if got := Join(cold, warm); got != want {
		t.Fatalf("Join the other way = %+v, want %+v", got, want)
	}
}

func TestTable(t *testing.T) {
	rows := []Row{
		{Agent: "vibe", Name: "Mistral Vibe", Version: "3.0.2", Tool: "bash", ToolRan: true, Approval: "shows: a | b",
			Warm: true, Resume: true, Modes: true, Usage: true, Note: "slow start"},
		{Agent: "kimi", Name: "Kimi CLI"},
	}
	got := Table(rows)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("want header, rule and 2 rows:\n%s", got)
	}
	cols := strings.Count(lines[0], "|")
	for i, l := range lines {
		// An escaped \| stays inside its cell.
		if n := strings.Count(l, "|") - strings.Count(l, `\|`); n != cols {
			t.Fatalf("line %d has %d cell borders, header %d: %s", i, n, cols, l)
		}
	}
	want := "| Mistral Vibe | `vibe` | 3.0.2 | `bash` | yes | shows: a \\| b | no | yes | yes | no | yes | no | yes | slow start |"
	if lines[2] != want {
		t.Fatalf("row\n%s\nwant\n%s", lines[2], want)
	}
	if want := "| Kimi CLI | `kimi` | — | — | no | — | no | no | no | no | no | no | no |  |"; lines[3] != want {
		t.Fatalf("empty row\n%s\nwant\n%s", lines[3], want)
	}
}

func TestReplace(t *testing.T) {
	tests := []struct {
		name, doc, want string
		wantErr         bool
	}{
		{name: "between the markers", doc: "a\n" + StartMarker + "\nold\n" + EndMarker + "\nb\n",
			want: "a\n" + StartMarker + "\nT\n" + EndMarker + "\nb\n"},
		{name: "empty section", doc: StartMarker + EndMarker, want: StartMarker + "\nT\n" + EndMarker},
		{name: "no markers", doc: "a\n", wantErr: true},
		{name: "end before start", doc: EndMarker + StartMarker, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Replace([]byte(tt.doc), "T\n")
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if !tt.wantErr && string(got) != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLoadSaveRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "compat.json")
	if rows, err := Load(path); err != nil || rows != nil {
		t.Fatalf("a missing file: %v %v", rows, err)
	}
	rows := []Row{{Agent: "qwen", Name: "Qwen Code", ToolRan: true, Approval: "shows: a > b && c"}}
	if err := Save(path, rows); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"shows: a > b && c"`) {
		t.Fatalf("the file does not read as the command: %s", b)
	}
	got, err := Load(path)
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Fatalf("Load = %+v %v", got, err)
	}
}
