package shim

import (
	"fmt"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// outputCap bounds the output text a run stores (docs/ARCHITECTURE.md
// §Journal): a 50 MB answer grew the journal by 64 MB plus a 169 MB WAL
// and took the window 38 s to show. The first half of the cap is stored as
// it streams; beyond it, answer text goes to a tail buffer of the other
// half (its oldest bytes dropped as new ones come) and reasoning and tool
// output are dropped. When the turn ends, a notice says how much was cut
// and the answer's tail follows it. Not safe for concurrent use: the
// emitter calls it under the runner's lock.
type outputCap struct {
	head    int64 // bytes stored before cutting starts
	tailMax int
	stored  int64
	cutting bool
	cut     int64  // bytes dropped
	tail    []byte // the answer's last bytes while cutting
}

func newOutputCap(limit int64) *outputCap {
	return &outputCap{head: limit / 2, tailMax: int(limit - limit/2)}
}

// text returns the output text an event carries, if it is capped output.
func cappedText(t run.EventType, payload any) (string, bool) {
	switch t {
	case run.EventTokenDelta, run.EventReasoningDelta:
		if d, ok := decode[run.TextDelta](payload); ok {
			return d.Text, true
		}
	case run.EventToolUpdated:
		if u, ok := decode[run.ToolUpdated](payload); ok && u.Output != "" {
			return u.Output, true
		}
	}
	return "", false
}

// admit decides what of an event is stored: the payload to append (nil:
// drop it). Events without output text pass unchanged.
func (c *outputCap) admit(t run.EventType, payload any) any {
	text, ok := cappedText(t, payload)
	if !ok {
		return payload
	}
	n := int64(len(text))
	if !c.cutting && c.stored+n <= c.head {
		c.stored += n
		return payload
	}
	keep := ""
	if !c.cutting {
		c.cutting = true
		keep = prefixAtRune(text, int(c.head-c.stored))
		c.stored += int64(len(keep))
		text = text[len(keep):]
	}
	if t == run.EventTokenDelta {
		c.tail = append(c.tail, text...)
		if over := len(c.tail) - c.tailMax; over > 0 {
			c.cut += int64(over)
			c.tail = c.tail[over:]
		}
	} else {
		c.cut += int64(len(text))
	}
	if keep == "" {
		return nil
	}
	return withText(t, payload, keep)
}

// end returns the events that close a cut run's output: a notice of what
// was cut and the answer's tail (nil if nothing was cut).
func (c *outputCap) end() []capEvent {
	if !c.cutting {
		return nil
	}
	tail := string(c.tail)
	// The tail's first bytes may be the middle of a character.
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
		c.cut++
	}
	msg := fmt.Sprintf("The output was too long to keep whole: %s in the middle were left out (the beginning and the last %s of the answer are kept; setting max_run_output_mb).",
		sizeWords(c.cut), sizeWords(int64(len(tail))))
	out := []capEvent{{run.EventNotice, run.Notice{Message: msg}}}
	if tail != "" {
		out = append(out, capEvent{run.EventTokenDelta, run.TextDelta{Text: tail}})
	}
	c.cutting, c.tail = false, nil
	return out
}

// capEvent is an event the cap adds when the turn ends.
type capEvent struct {
	t run.EventType
	p any
}

func withText(t run.EventType, payload any, text string) any {
	switch t {
	case run.EventToolUpdated:
		u, _ := decode[run.ToolUpdated](payload)
		u.Output = text
		return u
	default:
		return run.TextDelta{Text: text}
	}
}

// prefixAtRune is s cut to at most n bytes without splitting a character.
func prefixAtRune(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func sizeWords(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
