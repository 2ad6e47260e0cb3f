package adapter

import (
	"fmt"
	"strings"
)

// AuthRequiredError: the agent needs its person to sign in before it opens a
// session (ACP session/new answered -32000 "Authentication required"). Its
// message is for people: each way the agent offers, in words, with the
// exact command for a terminal one — never the protocol's JSON
// (docs/ARCHITECTURE.md §Adapters).
type AuthRequiredError struct {
	Agent   string       // the agent's display name
	Methods []AuthMethod // as the agent offered them
}

// AuthMethod is one way an agent offers to sign in.
type AuthMethod struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Command is the exact command line to run in a terminal (a terminal
	// method); empty otherwise.
	Command string `json:"command,omitempty"`
	// EnvVars are the variables to set in the agent's environment (an
	// env_var method).
	EnvVars []string `json:"env_vars,omitempty"`
}

func (e *AuthRequiredError) Error() string {
	who := e.Agent
	if who == "" {
		who = "The agent"
	}
	var ways []string
	for _, m := range e.Methods {
		if w := m.words(); w != "" {
			ways = append(ways, w)
		}
	}
	switch len(ways) {
	case 0:
		return who + " needs you to sign in first; it did not say how (see its documentation), then Retry."
	case 1:
		return who + " needs you to sign in first: " + ways[0] + ". Then Retry."
	}
	return who + " needs you to sign in first, in one of these ways: " + strings.Join(ways, "; or ") + ". Then Retry."
}

// words says one method as a person acts on it.
func (m AuthMethod) words() string {
	label := clean(m.Name)
	if label == "" {
		label = clean(m.ID)
	}
	switch {
	case m.Command != "":
		// Exactly as given (quoted words keep their spaces), on one line.
		return fmt.Sprintf("run `%s` in a terminal (%s)", oneLine.Replace(m.Command), label)
	case len(m.EnvVars) > 0:
		return fmt.Sprintf("set %s in the agent's environment in Settings → Agents (%s)", strings.Join(m.EnvVars, " and "), label)
	}
	if d := clean(m.Description); d != "" && label != "" {
		return label + " — " + strings.TrimRight(d, ".")
	}
	return label
}

var oneLine = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// clean keeps agent text to one line.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }
