//go:build race

package cli

// raceEnabled: the race detector slows SSE fan-out ~10x; flood tests shrink.
const raceEnabled = true
