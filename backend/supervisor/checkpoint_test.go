package supervisor_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/checkpoints"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd/gitcmdtest"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// The checkpoint settings reach the run's shim (docs/ARCHITECTURE.md
// §Checkpoints): a file above checkpoints.max_file_bytes is noted, not
// kept; checkpoints.enabled false takes none.
func TestCheckpointSettingsApply(t *testing.T) {
	gitcmdtest.Need(t)
	e := newEnv(t)
	ctx := context.Background()
	if err := e.store.PutSetting(ctx, checkpoints.SettingMaxFileBytes, json.RawMessage(`10`)); err != nil {
		t.Fatal(err)
	}
	first, _ := e.runDone(e.session.ID, "/scenario tool\ngo") // writes hello.txt, 26 bytes
	second, _ := e.runDone(e.session.ID, "/scenario tool\nagain")
	recs, err := e.store.ListCheckpoints(ctx, run.CheckpointFilter{RunID: second.RunID})
	if err != nil || len(recs) != 1 {
		t.Fatalf("the second run's checkpoint: %+v, %v", recs, err)
	}
	if recs[0].After == "" || len(recs[0].Large) != 1 || recs[0].Large[0] != "hello.txt" {
		t.Errorf("hello.txt is above the limit and should be noted, not kept: %+v", recs[0])
	}
	if recs, _ := e.store.ListCheckpoints(ctx, run.CheckpointFilter{RunID: first.RunID}); len(recs) != 1 {
		t.Errorf("the first run's checkpoint: %+v", recs)
	}

	if err := e.store.PutSetting(ctx, checkpoints.SettingEnabled, json.RawMessage(`false`)); err != nil {
		t.Fatal(err)
	}
	third, _ := e.runDone(e.session.ID, "/scenario tool\nonce more")
	if recs, _ := e.store.ListCheckpoints(ctx, run.CheckpointFilter{RunID: third.RunID}); len(recs) != 0 {
		t.Errorf("checkpoints off, yet one was taken: %+v", recs)
	}
}
