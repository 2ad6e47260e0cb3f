package run

import (
	"fmt"
	"strings"
)

// MatchOption resolves a person's answer to one of an approval's offered
// options (docs/ARCHITECTURE.md §Controls): an option id; else an ACP kind
// (allow_once, reject_always…); else the words "allow" and "deny" (and
// their synonyms), the documented aliases of the first allow and the first
// reject option, for callers that only know yes or no. ok is false when
// nothing matches. The one place the shim and the adapters decide this.
func MatchOption(opts []ApprovalOption, answer string) (ApprovalOption, bool) {
	for _, o := range opts {
		if o.ID == answer {
			return o, true
		}
	}
	kinds := []string{answer}
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "allow", "approve", "approved", "yes", "once":
		kinds = []string{"allow_once", "allow_always"}
	case "always":
		kinds = []string{"allow_always"}
	case "deny", "denied", "reject", "no":
		kinds = []string{"reject_once", "reject_always"}
	}
	for _, k := range kinds {
		if k == "" {
			continue
		}
		for _, o := range opts {
			if o.Kind == k {
				return o, true
			}
		}
	}
	return ApprovalOption{}, false
}

// OfferedChoices words the options of an approval for an answer that
// matched none: "allow-once (Allow), reject-once (Reject)".
func OfferedChoices(opts []ApprovalOption) string {
	parts := make([]string, 0, len(opts))
	for _, o := range opts {
		if o.Label != "" && o.Label != o.ID {
			parts = append(parts, fmt.Sprintf("%s (%s)", o.ID, o.Label))
		} else {
			parts = append(parts, o.ID)
		}
	}
	return strings.Join(parts, ", ")
}
