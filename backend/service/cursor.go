package service

import (
	"strconv"
	"strings"
)

// ParseCursor reads where a watcher left off: a seq ("42") or an event id
// ("run_7f3:42", the SSE Last-Event-ID). Anything malformed, negative or
// belonging to another run gives 0 — replay from the start, never skip
// (docs/ARCHITECTURE.md §Journal).
func ParseCursor(runID, c string) int64 {
	c = strings.TrimSpace(c)
	if c == "" {
		return 0
	}
	if i := strings.LastIndexByte(c, ':'); i >= 0 {
		if c[:i] != runID {
			return 0
		}
		c = c[i+1:]
	}
	n, err := strconv.ParseInt(c, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
