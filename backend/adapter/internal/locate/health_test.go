package locate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/paths"
)

func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProbeHealth(t *testing.T) {
	dir := t.TempDir()
	good := writeScript(t, dir, "good", `echo "good-cli 4.5.6 (build)"`)
	broken := writeScript(t, dir, "broken", `echo boom >&2; exit 3`)
	p := Probe{Program: "no-such-agent-program", DisplayName: "Agent X", InstallHint: "install X"}
	tests := []struct {
		name    string
		command []string
		check   func(t *testing.T, ok, installed bool, version, msg string)
	}{
		{"missing", nil, func(t *testing.T, ok, installed bool, _, msg string) {
			if ok || installed || msg != "install X" {
				t.Fatalf("ok=%v installed=%v %q", ok, installed, msg)
			}
		}},
		{"runs", []string{good}, func(t *testing.T, ok, installed bool, version, _ string) {
			if !ok || !installed || version != "4.5.6" {
				t.Fatalf("ok=%v installed=%v %q", ok, installed, version)
			}
		}},
		{"fails to start", []string{broken}, func(t *testing.T, ok, installed bool, _, msg string) {
			if ok || !installed || !strings.HasPrefix(msg, "Agent X is installed but did not start") {
				t.Fatalf("ok=%v installed=%v %q", ok, installed, msg)
			}
		}},
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv(paths.EnvTools, t.TempDir())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := p.Health(context.Background(), tt.command, os.Environ())
			tt.check(t, h.OK, h.Installed, h.Version, h.Message)
		})
	}
}
