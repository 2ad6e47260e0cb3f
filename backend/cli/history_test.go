package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// `hermesdesk history ls|import` with no app running: the recorded Claude
// Code and Codex files are found where their env vars point, imported
// once, and a second import stores nothing.
func TestHistoryWithoutTheApp(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	t.Setenv("CLAUDE_CONFIG_DIR", abs("../history/testdata/claude"))
	t.Setenv("CODEX_HOME", abs("../history/testdata/codex"))
	run := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		e := &Env{Stdout: &out, Stderr: &errOut, DataDir: func() (string, error) { return dir, nil }}
		code := e.History(args)
		return code, out.String() + errOut.String()
	}
	for _, c := range []struct {
		args []string
		code int
		says []string
	}{
		{[]string{"ls"}, exitOK, []string{"claude   Claude Code      1 sessions", "codex    Codex            1 sessions", "mirror off"}},
		{[]string{"import", "claude"}, exitOK, []string{"Imported 1 claude sessions, updated 0 (0 already imported"}},
		{[]string{"import", "codex"}, exitOK, []string{"Imported 1 codex sessions, updated 0 (0 already imported"}},
		{[]string{"import", "claude"}, exitOK, []string{"Imported 0 claude sessions, updated 0 (1 already imported"}},
		{[]string{"import", "gemini-old"}, exitFail, []string{`"gemini-old" is not a history source`}},
		{[]string{"frob"}, exitUsage, nil},
		{[]string{"import", "--mirror", "codex"}, exitFail, []string{"the mirror runs in the app"}},
	} {
		code, out := run(c.args...)
		if code != c.code {
			t.Fatalf("history %v: exit %d, want %d: %s", c.args, code, c.code, out)
		}
		for _, s := range c.says {
			if !strings.Contains(out, s) {
				t.Fatalf("history %v says %q, want %q", c.args, out, s)
			}
		}
	}
}
