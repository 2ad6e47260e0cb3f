package codex

import (
	"context"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A native fork (docs/ARCHITECTURE.md §Checkpoints, native forks): Codex's
// app-server `thread/fork {threadId, lastTurnId}` copies a thread through
// one of its turns. The turn is found by asking the app-server for the
// source thread's turns (thread/turns/list): the fork keeps f.Turns of
// them, after checking that the next one is the message forked from.

// maxForkTurnPages bounds the turn listing of a source thread.
const maxForkTurnPages = 50

// forkPoint is the id of the last turn a fork f keeps ("" when there is
// no fork to make: the thread then starts new, and the conversation is
// handed over).
func (c *conn) forkPoint(ctx context.Context, f *run.NativeFork) string {
	if f == nil || f.From == "" || f.Turns < 1 {
		return ""
	}
	type turn struct {
		ID    string `json:"id"`
		Items []struct {
			Type    string `json:"type"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"items"`
	}
	var turns []turn
	cursor := ""
	for page := 0; page < maxForkTurnPages && len(turns) <= f.Turns; page++ {
		params := map[string]any{"threadId": f.From, "sortDirection": "asc", "itemsView": "full"}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var res struct {
			Data       []turn  `json:"data"`
			NextCursor *string `json:"nextCursor"`
		}
		if err := c.callInto(ctx, "thread/turns/list", params, &res); err != nil {
			logf(c.log, "no native fork: thread/turns/list %s: %v", f.From, err)
			return ""
		}
		turns = append(turns, res.Data...)
		if res.NextCursor == nil || *res.NextCursor == "" {
			break
		}
		cursor = *res.NextCursor
	}
	switch {
	case len(turns) < f.Turns:
		logf(c.log, "no native fork: thread %s has %d turns, not %d", f.From, len(turns), f.Turns)
		return ""
	case len(turns) == f.Turns:
		if !f.All {
			logf(c.log, "no native fork: thread %s lacks the turn forked from", f.From)
			return ""
		}
		return turns[f.Turns-1].ID
	}
	var typed []string
	for _, it := range turns[f.Turns].Items {
		if it.Type == "userMessage" {
			for _, c := range it.Content {
				typed = append(typed, c.Text)
			}
		}
	}
	if !strings.Contains(strings.Join(typed, "\n"), strings.TrimSpace(f.Next)) {
		logf(c.log, "no native fork: turn %d of thread %s is another message", f.Turns+1, f.From)
		return ""
	}
	return turns[f.Turns-1].ID
}

// ForkedNatively implements adapter.Forker.
func (c *conn) ForkedNatively() bool { return c.forked }
