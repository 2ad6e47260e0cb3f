package autostart

import (
	"errors"
	"fmt"
	"strings"
)

// RunKey is the part of HKCU\Software\Microsoft\Windows\CurrentVersion\Run
// the Windows backend uses; the real one is in runkey_windows.go.
type RunKey interface {
	Get(name string) (string, error) // ErrNotFound when absent
	Set(name, value string) error
	Delete(name string) error // nil when absent
}

// ErrNotFound is what RunKey.Get returns for a missing value.
var ErrNotFound = errors.New("registry value not found")

type runKey struct {
	entry Entry
	key   RunKey
}

func (r *runKey) Location() string {
	return `HKCU\` + runKeyPath + `\` + r.entry.ID
}

func (r *runKey) Enable() error {
	if err := r.key.Set(r.entry.ID, WindowsCommandLine(r.entry.Exec, r.entry.Args...)); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

func (r *runKey) Disable() error {
	if err := r.key.Delete(r.entry.ID); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

func (r *runKey) Enabled() (bool, error) {
	v, err := r.key.Get(r.entry.ID)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("autostart: %w", err)
	}
	return v != "", nil
}

const runKeyPath = `Software\Microsoft\Windows\CurrentVersion\Run`

// WindowsCommandLine quotes arguments the way CommandLineToArgvW splits them.
func WindowsCommandLine(prog string, args ...string) string {
	parts := []string{`"` + prog + `"`} // program paths cannot contain quotes
	for _, a := range args {
		parts = append(parts, quoteWindowsArg(a))
	}
	return strings.Join(parts, " ")
}

func quoteWindowsArg(a string) string {
	if a != "" && !strings.ContainsAny(a, " \t\"") {
		return a
	}
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for _, r := range a {
		switch r {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, 2*slashes+1))
			slashes = 0
			b.WriteRune(r)
			continue
		default:
			slashes = 0
		}
		if r != '\\' {
			b.WriteRune(r)
		} else {
			b.WriteByte('\\')
		}
	}
	b.WriteString(strings.Repeat(`\`, slashes))
	b.WriteByte('"')
	return b.String()
}
