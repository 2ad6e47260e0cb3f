package service

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// A message's status is sent once: in its run (docs/ARCHITECTURE.md §API).
// The journal's message keeps RunStatus (bundles carry it); the view hides it.
func TestMessageViewSendsTheStatusOnce(t *testing.T) {
	v := MessageView{
		Message: run.Message{ID: "msg_1", Role: run.RoleAssistant, RunID: "run_1", RunStatus: run.StatusFailed, Error: "no"},
		Run:     &run.Run{ID: "run_1", Status: run.StatusFailed},
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"run_status"`) {
		t.Errorf("the status is sent twice: %s", b)
	}
	var back struct {
		Run struct {
			Status run.Status `json:"status"`
		} `json:"run"`
	}
	if err := json.Unmarshal(b, &back); err != nil || back.Run.Status != run.StatusFailed {
		t.Errorf("run.status %q (%v) in %s", back.Run.Status, err, b)
	}
}
