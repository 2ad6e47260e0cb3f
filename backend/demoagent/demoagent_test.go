package demoagent

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

// The product ships exactly the scenarios a person tries features with;
// the test kit's crash, hang, flood… scenarios stay out of the binary.
func TestBuiltInScenariosAreTheUserFacingOnes(t *testing.T) {
	m, err := Scenarios(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"approval", "clarify", "demo", "models", "recall", "slow", "slowtool", "thinking", "tool"}
	if got := Names(m); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("built-in scenarios %v; want %v", got, want)
	}
	for _, name := range want {
		if s := m[name]; s.Description == "" || len(s.Steps) == 0 {
			t.Errorf("scenario %q has no description or steps", name)
		}
	}
}

// The slash menu (frontend) offers exactly the scenarios the shipped demo
// agent plays: none it lacks, none left out.
func TestSlashMenuOffersTheBuiltInScenarios(t *testing.T) {
	src, err := os.ReadFile("../../frontend/src/components/composer/slashCommands.ts")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`DEMO_SCENARIOS = \[([^\]]*)\]`).FindSubmatch(src)
	if m == nil {
		t.Fatal("slashCommands.ts has no DEMO_SCENARIOS list")
	}
	offered := regexp.MustCompile(`"([^"]+)"`).FindAllSubmatch(m[1], -1)
	got := make([]string, 0, len(offered))
	for _, o := range offered {
		got = append(got, string(o[1]))
	}
	sort.Strings(got)
	builtin, err := Scenarios(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := Names(builtin); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the slash menu offers %v; the demo agent plays %v", got, want)
	}
}

func TestExtraScenarios(t *testing.T) {
	good := `{"name": "extra", "description": "x", "steps": [{"text": "hi"}]}`
	cases := []struct {
		name  string
		files fstest.MapFS
		ok    bool
	}{
		{"added", fstest.MapFS{"extra.json": {Data: []byte(good)}}, true},
		{"other files ignored", fstest.MapFS{"extra.json": {Data: []byte(good)}, "README.md": {Data: []byte("x")}}, true},
		{"built-in name taken", fstest.MapFS{"demo.json": {Data: []byte(`{"name": "demo", "description": "x", "steps": [{"text": "hi"}]}`)}}, false},
		{"name not its file", fstest.MapFS{"other.json": {Data: []byte(good)}}, false},
		{"unknown field", fstest.MapFS{"extra.json": {Data: []byte(`{"name": "extra", "steps": [{"txt": "hi"}]}`)}}, false},
		{"bad step", fstest.MapFS{"extra.json": {Data: []byte(`{"name": "extra", "steps": [{}]}`)}}, false},
	}
	for _, tc := range cases {
		m, err := Scenarios(tc.files)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v", tc.name, err)
			continue
		}
		if tc.ok && (m["extra"] == nil || m["demo"] == nil) {
			t.Errorf("%s: got %v; want the built-in ones and extra", tc.name, Names(m))
		}
	}
}

func TestValidateSteps(t *testing.T) {
	one := 1
	cases := []struct {
		name  string
		steps []Step
		ok    bool
	}{
		{"one action", []Step{{Text: "hi", Chunk: 3}}, true},
		{"no action", []Step{{Chunk: 3}}, false},
		{"two actions", []Step{{Text: "hi", Exit: &one}}, false},
		{"nested bad", []Step{{Repeat: &RepeatStep{Count: 2, Steps: []Step{{}}}}}, false},
		{"zero repeat", []Step{{Repeat: &RepeatStep{Steps: []Step{{Text: "x"}}}}}, false},
		{"tool without id", []Step{{Tool: &ToolStep{Title: "t"}}}, false},
	}
	for _, tc := range cases {
		if err := validateSteps(tc.steps); (err == nil) != tc.ok {
			t.Errorf("%s: err = %v", tc.name, err)
		}
	}
}

func TestParseScenario(t *testing.T) {
	cases := []struct{ in, name, rest string }{
		{"hello", "demo", "hello"},
		{"/scenario tool", "tool", ""},
		{"/scenario recall\nwhat did I say?", "recall", "what did I say?"},
		{"  /scenario   slow  extra\nx", "slow", "x"},
		{"/scenario", "demo", "/scenario"},
		{"please /scenario tool", "demo", "please /scenario tool"},
	}
	for _, tc := range cases {
		if name, rest := parseScenario(tc.in); name != tc.name || rest != tc.rest {
			t.Errorf("parseScenario(%q) = %q, %q; want %q, %q", tc.in, name, rest, tc.name, tc.rest)
		}
	}
}

func TestChunkRunes(t *testing.T) {
	if got := strings.Join(chunkRunes("héllo wörld", 4), "|"); got != "héll|o wö|rld" {
		t.Fatalf("got %q", got)
	}
	if got := chunkRunes("abc", 0); len(got) != 1 || got[0] != "abc" {
		t.Fatalf("got %q", got)
	}
}

func TestStoreRoundTripAndRefusesForeignIDs(t *testing.T) {
	st := store{dir: t.TempDir()}
	s := &session{ID: newSessionID(), Cwd: "/w", Turns: []turn{{Prompt: "p", Reply: "r"}}}
	if err := st.save(s); err != nil {
		t.Fatal(err)
	}
	got, err := st.load(s.ID)
	if err != nil || got.Turns[0].Reply != "r" {
		t.Fatalf("load = %+v, %v", got, err)
	}
	for _, bad := range []string{"../../etc/passwd", "fake-zz", "", filepath.Join("fake-0123456789abcdef", "x")} {
		if _, err := st.load(bad); err == nil {
			t.Errorf("load(%q) succeeded", bad)
		}
	}
	entries, _ := os.ReadDir(st.dir)
	if len(entries) != 1 {
		t.Fatalf("%d files in the store; want 1 (no temp files left)", len(entries))
	}
}

// By default the demo agent keeps its sessions in the user's data
// dir, not in a folder of the shared temp dir.
func TestStoreLivesInTheDataDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HERMESDESK_HOME", home)
	st := newStore("")
	if want := filepath.Join(home, StateDirName); st.dir != want {
		t.Fatalf("state dir %q, want %q", st.dir, want)
	}
	s := &session{ID: newSessionID(), Cwd: "/w"}
	if err := st.save(s); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(st.dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("state dir: %v %v", fi, err)
	}
}
