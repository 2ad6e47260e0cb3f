package supervisor_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// The user's own secret reaches the agent as typed — on a fresh agent and
// on a warm one — while the transcript, the search index and its snippets
// keep only the redacted text, and no run's spec (the one place the raw
// message travels) outlives its run.
func TestUserSecretsReachTheAgentButAreNotKept(t *testing.T) {
	e := newEnv(t, warmIdle(time.Minute))
	secrets := []string{
		"sk-ant-" + strings.Repeat("Zq9_", 8),
		"ghp_" + strings.Repeat("Ab3d", 9),
	}
	var runs []string
	for i, sec := range secrets {
		res, evs := e.runDone(e.session.ID, "please deploy with key "+sec+" now")
		runs = append(runs, res.RunID)
		if mu := firstOf[run.MessageUser](t, evs, run.EventMessageUser); strings.Contains(mu.Text, sec) {
			t.Fatalf("run %d: message.user holds the secret", i)
		}
		// The shim removes it just after the terminal event is committed.
		spec := filepath.Join(control.RunDir(e.dataDir, res.RunID), control.SpecFile)
		e.waitFor("the ended run's spec.json to go", 10*time.Second, func() bool {
			_, err := os.Stat(spec)
			return os.IsNotExist(err)
		})
	}
	ctx := context.Background()
	msgs, err := e.store.Messages(ctx, e.session.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		for _, sec := range secrets {
			if strings.Contains(m.Content, sec) || strings.Contains(m.Content, sec[8:]) {
				t.Fatalf("message %s (%s) stored the secret: %q", m.ID, m.Role, m.Content)
			}
		}
	}
	if !strings.Contains(msgs[0].Content, "please deploy with key") || !strings.Contains(msgs[0].Content, "[REDACTED]") {
		t.Fatalf("user message stored as %q", msgs[0].Content)
	}
	for _, sec := range secrets {
		hits, err := e.store.Search(ctx, sec[8:], 10)
		if err != nil || len(hits) != 0 {
			t.Fatalf("search for the secret: %v %+v", err, hits)
		}
	}
	hits, err := e.store.Search(ctx, "deploy", 10)
	if err != nil || len(hits) == 0 {
		t.Fatalf("search deploy: %v %+v", err, hits)
	}
	for _, h := range hits {
		for _, sec := range secrets {
			if strings.Contains(h.Snippet, sec[8:]) {
				t.Fatalf("snippet %q", h.Snippet)
			}
		}
	}
	// The agent got the raw text both times (the demo agent remembers the
	// prompts it was given).
	var state strings.Builder
	files, _ := filepath.Glob(filepath.Join(e.dataDir, "agent-state", "*.json"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		state.Write(b)
	}
	for i, sec := range secrets {
		if !strings.Contains(state.String(), sec) {
			t.Fatalf("run %d (%s): the agent did not receive the raw message", i, runs[i])
		}
	}
}

// Specs that older versions left behind after their runs ended are removed
// at recovery; a queued run's spec stays (it still has to start).
func TestRecoverRemovesSpecsOfEndedRuns(t *testing.T) {
	e := newEnv(t)
	res, _ := e.runDone(e.session.ID, "hello")
	ended := filepath.Join(control.RunDir(e.dataDir, res.RunID), control.SpecFile)
	e.waitFor("the spec to go", 10*time.Second, func() bool { _, err := os.Stat(ended); return os.IsNotExist(err) })
	// As an older version left it.
	if err := os.WriteFile(ended, []byte(`{"run_id":"`+res.RunID+`","message":"sk-ant-old"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(e.dataDir, "runs", "run_gone", control.SpecFile)
	os.MkdirAll(filepath.Dir(stray), 0o700)
	os.WriteFile(stray, []byte(`{}`), 0o600)
	e.sup.Close()
	e.open()
	for _, p := range []string{ended, stray} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s still there (%v)", p, err)
		}
	}
}
