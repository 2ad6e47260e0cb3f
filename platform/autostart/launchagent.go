package autostart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
)

// launchAgent is the macOS backend: ~/Library/LaunchAgents/<ID>.plist with
// RunAtLoad. launchd reads it at the next login; we do not launchctl-load it
// now because the app is already running.
type launchAgent struct {
	entry Entry
	path  string
}

func (l *launchAgent) Location() string { return l.path }

func (l *launchAgent) Enable() error {
	return writeFileAtomic(l.path, LaunchAgentPlist(l.entry), 0o644)
}

func (l *launchAgent) Disable() error { return removeIfExists(l.path) }

func (l *launchAgent) Enabled() (bool, error) {
	_, err := os.Stat(l.path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("autostart: %w", err)
	}
	return true, nil
}

// LaunchAgentPlist renders the LaunchAgent property list.
func LaunchAgentPlist(e Entry) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>`)
	xmlText(&b, e.ID)
	b.WriteString("</string>\n\t<key>ProgramArguments</key>\n\t<array>\n")
	for _, a := range append([]string{e.Exec}, e.Args...) {
		b.WriteString("\t\t<string>")
		xmlText(&b, a)
		b.WriteString("</string>\n")
	}
	b.WriteString("\t</array>\n\t<key>RunAtLoad</key>\n\t<true/>\n\t<key>ProcessType</key>\n\t<string>Interactive</string>\n</dict>\n</plist>\n")
	return b.Bytes()
}

func xmlText(b *bytes.Buffer, s string) {
	_ = xml.EscapeText(b, []byte(s)) // a bytes.Buffer never fails to write
}
