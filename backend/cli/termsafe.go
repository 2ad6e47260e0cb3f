package cli

import (
	"fmt"
	"strings"
)

// termSafe makes agent text harmless for a terminal: every control
// character but newline and tab is shown visibly instead of acting —
// ESC as ^[ (no window titles, clipboard writes, hyperlinks or cursor
// moves: OSC 0/52/8, CSI), other C0 controls in caret notation (^H, ^M:
// no overwriting a line), C1 controls and bidi/invisible format
// characters as <U+XXXX>. It works per character, so a sequence split
// across streamed pieces is defused too. Our own output adds no escapes
// (docs/ARCHITECTURE.md §Security, terminal output).
func termSafe(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + '@')
		case r == 0x7f:
			b.WriteString("^?")
		case hiddenRune(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(s string) bool {
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || hiddenRune(r) {
			return true
		}
	}
	return false
}

// hiddenRune: C1 controls (0x9b is an 8-bit CSI) and the format
// characters that reorder or hide text (bidi overrides and isolates,
// zero-width characters, BOM).
func hiddenRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e, r >= 0x2060 && r <= 0x2069, r == 0xfeff:
		return true
	}
	return false
}
