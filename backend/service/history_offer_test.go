package service_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/treecopy"
)

// copyDir copies a recorded history root into dst.
// The first-start offer counts, per source, the conversations never
// imported; an imported one (continued too) is no longer offered.
func TestHistoryOffer(t *testing.T) {
	ctx := context.Background()
	s, j := journalWorld(t, service.Options{})
	defer s.StopHistoryMirrors()
	home := t.TempDir()
	for env, dir := range map[string]string{"CLAUDE_CONFIG_DIR": "claude", "HERMES_HOME": "hermes"} {
		treecopy.Into(t, filepath.Join("..", "history", "testdata", dir), filepath.Join(home, dir))
		t.Setenv(env, filepath.Join(home, dir))
	}
	for _, env := range []string{"CODEX_HOME", "GEMINI_CLI_HOME", "QWEN_HOME", "XDG_DATA_HOME"} {
		t.Setenv(env, filepath.Join(home, "none"))
	}
	offers, err := s.HistoryOffers(ctx)
	if err != nil || len(offers) != 2 || offers[0].Source != "claude" || offers[0].New != 1 || offers[1].Source != "hermes" ||
		offers[1].New != 1 || offers[1].Name != "Hermes Agent" {
		t.Fatalf("offers %+v %v", offers, err)
	}
	if _, err := s.ImportHistory(ctx, service.HistoryImportRequest{Source: "claude"}); err != nil {
		t.Fatal(err)
	}
	offers, err = s.HistoryOffers(ctx)
	if err != nil || len(offers) != 1 || offers[0].Source != "hermes" {
		t.Fatalf("after importing claude: %+v %v", offers, err)
	}
	ses, _ := j.ListSessions(ctx, "")
	if _, err := s.ContinueSession(ctx, ses[0].ID); err != nil {
		t.Fatal(err)
	}
	if offers, err = s.HistoryOffers(ctx); err != nil || len(offers) != 1 {
		t.Fatalf("after continuing: %+v %v", offers, err)
	}
}
