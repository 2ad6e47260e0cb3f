package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// The words after `hermesdesk`: help and mistakes are answered in the
// terminal and never reach an app; a launch goes on to the core.
func TestMainWords(t *testing.T) {
	cwd := t.TempDir()
	if err := os.Mkdir(filepath.Join(cwd, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(cwd, "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	everyCommand := []string{"ask", "runs", "schedules", "export", "import", "serve", "help"}
	for _, tc := range []struct {
		args    []string
		handled bool
		code    int
		out     []string // in stdout
		errOut  string   // in stderr
	}{
		{args: nil},
		{args: []string{"--background"}},
		{args: []string{cwd}},
		{args: []string{"proj"}},
		{args: []string{"--background", "./proj"}},
		{args: []string{"file://" + filepath.Join(cwd, "proj")}},
		{args: []string{"file:///no/such/folder"}, handled: true, code: exitUsage, errOut: "there is no folder file:///no/such/folder"},
		{args: []string{"--help"}, handled: true, out: everyCommand},
		{args: []string{"-h"}, handled: true, out: everyCommand},
		{args: []string{"-help"}, handled: true, out: everyCommand},
		{args: []string{"help"}, handled: true, out: everyCommand},
		{args: []string{"help", "ask"}, handled: true, out: []string{"usage: hermesdesk ask", "-agent"}},
		{args: []string{"help", "nope"}, handled: true, code: exitUsage, errOut: `there is no command "nope"`},
		{args: []string{"ask", "--help"}, handled: true, out: []string{"usage: hermesdesk ask", "-project"}},
		{args: []string{"ask", "what", "is", "this", "-h"}, handled: true, out: []string{"usage: hermesdesk ask"}},
		{args: []string{"ask", "--agent", "--help", "hi"}, handled: true, out: []string{"usage: hermesdesk ask"}},
		{args: []string{"runs", "--help"}, handled: true, out: []string{"usage: hermesdesk runs"}},
		{args: []string{"runs", "ls", "--help"}, handled: true, out: []string{"usage: hermesdesk runs ls", "-active"}},
		{args: []string{"runs", "tail", "run_1", "--help"}, handled: true, out: []string{"usage: hermesdesk runs tail"}},
		{args: []string{"schedules", "-h"}, handled: true, out: []string{"usage: hermesdesk schedules"}},
		{args: []string{"schedules", "add", "--help"}, handled: true, out: []string{"-when"}},
		{args: []string{"schedules", "history", "--help"}, handled: true, out: []string{"usage: hermesdesk schedules history"}},
		{args: []string{"schedules", "rm", "s_1", "--help"}, handled: true, out: []string{"usage: hermesdesk schedules rm"}},
		{args: []string{"export", "ses_1", "-o", "--help"}, handled: true, out: []string{"usage: hermesdesk export", "-format"}},
		{args: []string{"import", "--help"}, handled: true, out: []string{"usage: hermesdesk import"}},
		{args: []string{"serve", "--help"}, handled: true, out: []string{"usage: hermesdesk serve", "-allow-remote"}},
		{args: []string{"halp"}, handled: true, code: exitUsage, errOut: `"halp" is neither a command nor a folder`},
		{args: []string{"./missing"}, handled: true, code: exitUsage, errOut: "there is no folder ./missing"},
		{args: []string{file}, handled: true, code: exitUsage, errOut: "is a file, not a folder"},
		{args: []string{"--frobnicate"}, handled: true, code: exitUsage, errOut: "there is no option --frobnicate"},
		{args: []string{"proj", cwd}, handled: true, code: exitUsage, errOut: "one folder at a time"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut syncBuf
			noApp := func() (string, error) {
				t.Error("help or a mistake reached for the app's data folder")
				return "", errors.New("no app here")
			}
			e := &Env{Stdout: &out, Stderr: &errOut, DataDir: noApp,
				Client: func(string) *httpapi.Client { t.Error("help or a mistake reached the app"); return nil },
				Getwd:  func() (string, error) { return cwd, nil }}
			code, handled := e.Main(tc.args, nil)
			if handled != tc.handled || code != tc.code {
				t.Fatalf("handled %v exit %d, want %v %d\nstdout: %s\nstderr: %s", handled, code, tc.handled, tc.code, out.String(), errOut.String())
			}
			for _, w := range tc.out {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			if tc.errOut == "" && errOut.String() != "" {
				t.Errorf("stderr = %q", errOut.String())
			}
			if !strings.Contains(errOut.String(), tc.errOut) {
				t.Errorf("stderr = %q, want %q", errOut.String(), tc.errOut)
			}
		})
	}
}
