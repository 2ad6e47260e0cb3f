//go:build unix

package cli

// `hermesdesk --help` and a mistyped word with the real program: they
// answer in the terminal and return at once, whether or not the app runs,
// and neither start the app nor show its window (docs/ARCHITECTURE.md
// §Processes, "Launch").

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/paths"
)

func TestHelpAndMistakesNeverLaunch(t *testing.T) {
	bin := buildApp(t)
	dataDir := takeoverDataDir(t)
	cwd := t.TempDir()
	run := func(args ...string) (int, string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = cwd
		cmd.Env = append(os.Environ(), "HERMESDESK_HOME="+dataDir, "HERMESDESK_WINDOW_BIN=/bin/false")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("hermesdesk %v did not return to the prompt:\n%s%s", args, out.String(), errOut.String())
		}
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errOut.String()
	}
	check := func(when string) {
		for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"ask", "--help"}} {
			code, out, errOut := run(args...)
			if code != 0 || !strings.Contains(out, "usage: hermesdesk") || errOut != "" {
				t.Errorf("%s: hermesdesk %v: exit %d\nstdout: %s\nstderr: %s", when, args, code, out, errOut)
			}
		}
		code, out, errOut := run("halp")
		if code == 0 || out != "" || !strings.Contains(errOut, `"halp" is neither a command nor a folder`) {
			t.Errorf("%s: hermesdesk halp: exit %d\nstdout: %s\nstderr: %s", when, code, out, errOut)
		}
	}

	check("no app running")
	lock := filepath.Join(paths.RuntimeDir(dataDir), "core.lock")
	if _, err := os.Stat(lock); err == nil {
		t.Fatalf("help or a mistake became the core (%s exists)", lock)
	}

	startCore(t, dataDir)
	check("the app running")
	log, _ := os.ReadFile(filepath.Join(dataDir, "logs", "hermesdesk.log"))
	if strings.Contains(string(log), "second instance") {
		t.Fatalf("help or a mistake reached the running app's window:\n%s", log)
	}
}
