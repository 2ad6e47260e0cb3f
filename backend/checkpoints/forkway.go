package checkpoints

// How a fork's conversation starts (docs/ARCHITECTURE.md §Checkpoints,
// native forks). A fork from a turn has the files from before that turn
// and the conversation before it. The agent's own fork gives it that
// conversation natively where the fork can end there: Claude Code
// (`--resume … --fork-session --resume-session-at`) and Codex
// (`thread/fork` with `lastTurnId`) fork at a turn; ACP `session/fork`
// only copies a session whole, which is exact only when no turn from the
// forked one on reached the agent. Anything else is handed over as text.

// ForkWay is how a fork's agent learns the conversation before the turn.
type ForkWay int

const (
	// ForkFresh: nothing was said before the turn; a new session.
	ForkFresh ForkWay = iota
	// ForkHandover: the conversation goes ahead of the first message.
	ForkHandover
	// ForkNative: the agent forks its own session (the handover stays the
	// fallback when the agent turns out not to offer it).
	ForkNative
)

func (w ForkWay) String() string {
	switch w {
	case ForkFresh:
		return "fresh"
	case ForkNative:
		return "native"
	}
	return "handover"
}

// ForkFacts are what the choice depends on.
type ForkFacts struct {
	// Native is the source session's id in its agent ("" when none).
	Native string
	// Before counts the turns before the forked one; Later those from it
	// on that reached the agent (its answer was recorded).
	Before, Later int
	// AtTurn: the agent forks at a turn, not only at its session's end.
	AtTurn bool
}

// DecideFork chooses how a fork's conversation starts.
func DecideFork(f ForkFacts) ForkWay {
	switch {
	case f.Before == 0:
		return ForkFresh
	case f.Native == "":
		return ForkHandover
	case f.AtTurn, f.Later == 0:
		return ForkNative
	}
	return ForkHandover
}

// ForksAtTurn says whether an agent's own fork can end at a given turn.
func ForksAtTurn(agent string) bool { return agent == "claude" || agent == "codex" }
