package autostart

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
)

// xdg is the freedesktop.org autostart backend: a .desktop file in
// $XDG_CONFIG_HOME/autostart. Desktops honour Hidden=true and
// X-GNOME-Autostart-enabled=false as "present but off", so Enabled reads them.
type xdg struct {
	entry Entry
	path  string
}

func (x *xdg) Location() string { return x.path }

func (x *xdg) Enable() error { return writeFileAtomic(x.path, DesktopFile(x.entry), 0o644) }

func (x *xdg) Disable() error { return removeIfExists(x.path) }

func (x *xdg) Enabled() (bool, error) {
	data, err := os.ReadFile(x.path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("autostart: %w", err)
	}
	return desktopFileEnabled(data), nil
}

// DesktopFile renders the autostart entry.
func DesktopFile(e Entry) []byte {
	var b bytes.Buffer
	b.WriteString("[Desktop Entry]\nType=Application\n")
	fmt.Fprintf(&b, "Name=%s\n", escapeValue(e.Name))
	if e.Comment != "" {
		fmt.Fprintf(&b, "Comment=%s\n", escapeValue(e.Comment))
	}
	fmt.Fprintf(&b, "Exec=%s\n", ExecLine(e.Exec, e.Args...))
	fmt.Fprintf(&b, "Icon=%s\n", escapeValue(e.ID))
	b.WriteString("Terminal=false\nX-GNOME-Autostart-enabled=true\n")
	return b.Bytes()
}

// ExecLine quotes a command line for a .desktop Exec key: arguments with
// reserved characters are double-quoted with ", `, $ and \ backslash-escaped,
// % is doubled (field codes), and the whole value gets the string-level
// escaping every .desktop value gets.
func ExecLine(prog string, args ...string) string {
	parts := make([]string, 0, 1+len(args))
	for _, a := range append([]string{prog}, args...) {
		parts = append(parts, quoteExecArg(a))
	}
	return escapeValue(strings.Join(parts, " "))
}

func quoteExecArg(a string) string {
	a = strings.ReplaceAll(a, "%", "%%")
	if a != "" && !strings.ContainsAny(a, " \t\n\"'\\><~|&;$*?#()`=") {
		return a
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range a {
		if r == '"' || r == '`' || r == '$' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// escapeValue applies the .desktop string escapes (\\, \n, \t, \r).
func escapeValue(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
}

func desktopFileEnabled(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	inEntry := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			inEntry = line == "[Desktop Entry]"
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !inEntry || !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Hidden":
			if strings.TrimSpace(v) == "true" {
				return false
			}
		case "X-GNOME-Autostart-enabled":
			if strings.TrimSpace(v) == "false" {
				return false
			}
		}
	}
	return true
}
