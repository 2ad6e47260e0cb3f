package supervisor_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/testkit/fakeagent"
)

// The session's kept choices reach a fresh agent through the spec and are
// applied before the prompt; the agent's settings for a new session are
// remembered for it (docs/ARCHITECTURE.md §Session config options).
func TestKeptChoicesReachAFreshAgent(t *testing.T) {
	e := newEnv(t, warmIdle(-1))
	ctx := context.Background()
	v, _ := json.Marshal(map[string]any{"env": []string{fakeagent.ConfigEnv + "=" + fakeagent.ConfigOptions}})
	if err := e.store.PutSetting(ctx, "agents.demo", v); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.UpdateSession(ctx, e.session.ID, run.SessionUpdate{Config: map[string]string{"mode": "plan"}}); err != nil {
		t.Fatal(err)
	}
	res := e.start(e.session.ID, "hello")
	evs := e.watchAll(e.sup, res.RunID, 0)
	if d := doneOf(t, evs); d.Status != run.StatusCompleted {
		t.Fatalf("run: %+v", d)
	}
	if got := modesOf(evs); got != "build (defaults), plan" {
		t.Fatalf("modes reported: %s", got)
	}
	d, err := e.store.AgentConfig(ctx, "demo")
	if err != nil || len(d.Options) != 4 || d.Options[1].ID != "mode" || d.Options[1].Current != "build" || d.Model != "demo-small" || len(d.Models) != 2 {
		t.Fatalf("the agent's remembered settings: %+v %v", d, err)
	}
}

// modesOf is the mode each config.updated of a run reports.
func modesOf(evs []run.Event) string {
	var modes []string
	for _, ev := range evs {
		var cu run.ConfigUpdated
		if ev.Type != run.EventConfigUpdated || json.Unmarshal(ev.Payload, &cu) != nil {
			continue
		}
		for _, o := range cu.Options {
			if o.ID == "mode" {
				modes = append(modes, o.Current+map[bool]string{true: " (defaults)"}[cu.Defaults])
			}
		}
	}
	return strings.Join(modes, ", ")
}

// A choice made between runs reaches the session's warm agent too: it is
// set before the next prompt, without restarting the agent.
func TestKeptChoiceReachesAWarmAgent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	v, _ := json.Marshal(map[string]any{"env": []string{fakeagent.ConfigEnv + "=" + fakeagent.ConfigOptions}})
	if err := e.store.PutSetting(ctx, "agents.demo", v); err != nil {
		t.Fatal(err)
	}
	first, evs := e.runDone(e.session.ID, "hello")
	if got := modesOf(evs); got != "build (defaults)" {
		t.Fatalf("first run's modes: %s", got)
	}
	if _, err := e.store.UpdateSession(ctx, e.session.ID, run.SessionUpdate{Config: map[string]string{"mode": "plan"}}); err != nil {
		t.Fatal(err)
	}
	second, evs := e.runDone(e.session.ID, "hello again")
	if b1, b2 := e.boot(first.RunID), e.boot(second.RunID); b1.AgentPid != b2.AgentPid {
		t.Fatalf("the second run did not go to the warm agent: %d, %d", b1.AgentPid, b2.AgentPid)
	}
	if got := modesOf(evs); got != "plan" {
		t.Fatalf("second run's modes: %s", got)
	}
}
