package agents

import (
	"os"
	"sync"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/test/agents/compat"
)

// CompatEnv names the JSON file the real agents' findings are merged into
// (`make test-agents` sets it to test/agents/testdata/compat.json and then
// writes the README's table from it: test/agents/compat).
const CompatEnv = "HERMESDESK_COMPAT"

type compatRow = compat.Row

var (
	compatMu   sync.Mutex
	compatRows []compat.Row
)

// observe notes what a run's journal shows of the agent's extras.
func observe(t *testing.T, r *compatRow, j *journal) {
	for _, ev := range j.ofType(run.EventModelUpdated) {
		var m run.ModelUpdated
		decode(t, ev, &m)
		r.Models = r.Models || len(m.Available) > 0
	}
	r.Modes = r.Modes || len(j.ofType(run.EventModeUpdated)) > 0
	// Session config options (DESIGN §13.1): a setting other than the
	// model (a mode, a reasoning effort, a switch) is one the header offers
	// by name; a model selector feeds model.updated above.
	for _, ev := range j.ofType(run.EventConfigUpdated) {
		var c run.ConfigUpdated
		decode(t, ev, &c)
		for _, o := range c.Options {
			r.Modes = r.Modes || o.Category != "model"
		}
	}
	r.Plan = r.Plan || len(j.ofType(run.EventPlanUpdated)) > 0
	r.Usage = r.Usage || len(j.ofType(run.EventUsageUpdated))+len(j.ofType(run.EventUsageFinal)) > 0 ||
		j.done.Usage != nil && j.done.Usage.InputTokens+j.done.Usage.OutputTokens > 0
}

// recordCompat keeps a test's row for writeCompat, joined with the row
// another test of this run found for the same agent (the warm and the
// cold variant of one agent's test each find part of it).
func recordCompat(t *testing.T, r compatRow) {
	if t.Skipped() {
		return
	}
	compatMu.Lock()
	defer compatMu.Unlock()
	for i, o := range compatRows {
		if o.Agent == r.Agent {
			compatRows[i] = compat.Join(o, r)
			return
		}
	}
	compatRows = append(compatRows, r)
}

// writeCompat merges this run's rows into $HERMESDESK_COMPAT.
func writeCompat() error {
	path := os.Getenv(CompatEnv)
	compatMu.Lock()
	defer compatMu.Unlock()
	if path == "" || len(compatRows) == 0 {
		return nil
	}
	old, err := compat.Load(path)
	if err != nil {
		return err
	}
	return compat.Save(path, compat.Merge(old, compatRows))
}
