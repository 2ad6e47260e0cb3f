package acp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// applyChoices sets the session's kept choices (docs/ARCHITECTURE.md
// §Session config options) before a turn's prompt: on a fresh agent right
// after session/new or session/load, on a warm one those changed between
// runs. A choice the agent no longer offers is dropped (config.updated's
// chosen forgets it) with a notice, never an error; one the agent refuses
// is logged and kept. The model travels as the turn's model instead.
func (c *conn) applyChoices(ctx context.Context, choices map[string]string) {
	if len(choices) == 0 {
		return
	}
	ids := make([]string, 0, len(choices))
	for id := range choices {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	dropped := map[string]string{}
	var gone []string
	changed := false
	for _, id := range ids {
		value := choices[id]
		opt := c.option(id)
		switch {
		case opt == nil || offered(*opt, value) != nil:
			dropped[id] = ""
			gone = append(gone, fmt.Sprintf("%s %q", optionName(opt, id), value))
			continue
		case opt.Category == "model" || opt.Current == value:
			continue
		}
		if _, err := c.SetConfigOption(ctx, id, value); err != nil {
			c.log.Warn("acp: could not apply the session's setting", "option", id, "value", value, "err", err)
			continue
		}
		changed = true
	}
	if !changed && len(dropped) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cu := run.ConfigUpdated{Options: append([]run.ConfigOption(nil), c.config...)}
	if len(dropped) > 0 {
		cu.Chosen = dropped
	}
	c.keepPending(Out{run.EventConfigUpdated, cu})
	if len(gone) > 0 {
		c.keepPending(Out{run.EventNotice, run.Notice{Message: fmt.Sprintf(
			"%s no longer offers %s, kept for this session: it uses the agent's default instead.", c.a.display, strings.Join(gone, ", "))}})
	}
}

func optionName(o *run.ConfigOption, id string) string {
	if o != nil {
		return o.Name
	}
	return "the setting " + id
}
