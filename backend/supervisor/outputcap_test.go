package supervisor_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/supervisor"
)

// The max_run_output_mb setting reaches the run's shim: output beyond it
// is cut, with a notice saying so, and the run still completes.
func TestOutputCapSettingApplies(t *testing.T) {
	e := newEnv(t)
	if err := e.store.PutSetting(context.Background(), supervisor.SettingMaxOutput, json.RawMessage(`0.0005`)); err != nil {
		t.Fatal(err)
	}
	_, evs := e.runDone(e.session.ID, "hello") // the demo agent says ~1 KB
	var notice string
	for _, ev := range evs {
		if ev.Type == run.EventNotice {
			var n run.Notice
			json.Unmarshal(ev.Payload, &n)
			notice = n.Message
		}
	}
	if !strings.Contains(notice, "too long") {
		t.Fatalf("no notice of the cut output in %d events", len(evs))
	}
}
