package agenttest

import (
	"regexp"
	"sort"
)

// Clock readings in native transcripts: ISO-8601 strings and epoch numbers
// (seconds or milliseconds) under keys that name a time, and the dated
// names of Codex's rollout files. Normalize pins them, so a re-recording
// differs from the last only where the agent's behaviour did.
var (
	isoTimeRE   = regexp.MustCompile(`("[A-Za-z_]*(?:[Tt]ime(?:stamp)?|At)"\s*:\s*)"\d{4}-\d\d-\d\dT[^"]*"`)
	epochTimeRE = regexp.MustCompile(`("[A-Za-z_]*(?:[Tt]ime(?:stamp)?|At|AtMs|_at)"\s*:\s*)\d{9,}`)
	rolloutRE   = regexp.MustCompile(`\d{4}/\d\d/\d\d/rollout-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-`)
)

// Normalize replaces the clock readings in one transcript line.
func Normalize(line string) string {
	line = isoTimeRE.ReplaceAllString(line, `${1}"2000-01-01T00:00:00.000Z"`)
	line = epochTimeRE.ReplaceAllString(line, `${1}0`)
	return rolloutRE.ReplaceAllString(line, "2000/01/01/rollout-2000-01-01T00-00-00-")
}

// sortPairs orders old/new pairs for strings.NewReplacer longest old first
// (the replacer prefers the earliest listed of overlapping matches).
func sortPairs(pairs []string) []string {
	type pair struct{ old, new string }
	ps := make([]pair, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		ps = append(ps, pair{pairs[i], pairs[i+1]})
	}
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].old) > len(ps[j].old) })
	out := make([]string, 0, len(pairs))
	for _, p := range ps {
		out = append(out, p.old, p.new)
	}
	return out
}
