package history

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Where an agent's own fork of a session ends (docs/ARCHITECTURE.md
// §Checkpoints, native forks). A fork at a turn names the last message it
// keeps in the agent's own terms, found in the agent's own files: this
// package reads them.

// ErrNoForkPoint: the agent's files do not show where the fork would end
// (no such session, fewer turns, or the next turn is another message):
// the conversation is handed over instead.
var ErrNoForkPoint = errors.New("history: no fork point in the agent's files")

// ForkPoint is the agent's id of the last message a native fork f keeps:
// Claude Code's uuid of the last assistant line of turn f.Turns (for
// `--resume-session-at`), after checking that turn f.Turns+1 is f.Next.
// cfg is the agent's settings (its Home is its config dir).
func ForkPoint(agent string, cfg adapter.Config, f run.NativeFork) (string, error) {
	if agent != "claude" || f.From == "" || f.Turns < 1 || strings.ContainsAny(f.From, `/\`) {
		return "", ErrNoForkPoint
	}
	root := cfg.Home
	if root == "" {
		home, _ := os.UserHomeDir()
		root = Claude{}.Root(os.Getenv, home)
	}
	files, _ := filepath.Glob(filepath.Join(root, "projects", "*", f.From+".jsonl"))
	if len(files) != 1 {
		return "", fmt.Errorf("%w: %d files of Claude Code session %s under %s", ErrNoForkPoint, len(files), f.From, root)
	}
	fh, err := os.Open(files[0])
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoForkPoint, err)
	}
	defer fh.Close()
	return claudeForkPoint(fh, f.Turns, f.Next)
}

// claudeForkPoint walks the conversation's path: the uuid of the last
// assistant line before the prompt of turn turns+1, which must hold next.
func claudeForkPoint(r io.Reader, turns int, next string) (string, error) {
	var lines []claudeLine
	byID := map[string]int{}
	_, err := eachLine(r, func(Skipped) {}, func(_ int, b []byte) {
		if l, err := parseClaudeLine(b); err == nil {
			if l.UUID != "" {
				byID[l.UUID] = len(lines)
			}
			lines = append(lines, l)
		}
	})
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoForkPoint, err)
	}
	prompts, last := 0, ""
	for _, l := range claudePath(lines, byID) {
		switch {
		case l.Type == "assistant" && !l.IsSidechain:
			last = l.UUID
		case l.Type == "user" && !l.IsMeta && !l.IsSidechain:
			text, ok := claudeUserText(l.Message)
			if !ok {
				continue // a tool result
			}
			if prompts++; prompts <= turns {
				continue
			}
			if last == "" || !strings.Contains(text, strings.TrimSpace(next)) {
				return "", fmt.Errorf("%w: turn %d is not the message forked from", ErrNoForkPoint, prompts)
			}
			return last, nil
		}
	}
	return "", fmt.Errorf("%w: the session has %d turns, not %d", ErrNoForkPoint, prompts, turns+1)
}
