package service_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// Importing the agents' histories over the service: the sources are found
// where the agents' env vars point, the import is announced on the watch
// bus, and with the mirror on a turn the agent finishes later shows as an
// update of the same session.
func TestHistoryThroughTheService(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, j := journalWorld(t, service.Options{})
	defer s.StopHistoryMirrors()

	// A Codex home whose one rollout stops inside the tool turn.
	home := t.TempDir()
	src, _ := filepath.Glob("../history/testdata/codex/sessions/*/*/*/rollout-*.jsonl")
	full, err := os.ReadFile(src[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(full, []byte("\n"))
	cut := 0
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"function_call_output"`)) {
			cut = i
			break
		}
	}
	dir := filepath.Join(home, "sessions", "2026", "11", "27")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, filepath.Base(src[0]))
	if err := os.WriteFile(file, bytes.Join(lines[:cut], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CODEX_HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "no-claude"))
	for _, env := range []string{"GEMINI_CLI_HOME", "QWEN_HOME", "XDG_DATA_HOME", "HERMES_HOME"} {
		t.Setenv(env, filepath.Join(home, "none")) // none of the person's own histories
	}

	srcs, err := s.HistorySources(ctx)
	if err != nil || len(srcs) != 1 || srcs[0].ID != "codex" || srcs[0].Sessions != 1 || srcs[0].Mirror {
		t.Fatalf("sources %+v %v", srcs, err)
	}
	if _, err := s.ImportHistory(ctx, service.HistoryImportRequest{Source: "cursor"}); service.CodeOf(err) != service.CodeBadRequest {
		t.Fatalf("unknown source: %v", err)
	}

	ch, err := s.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	next(t, ch) // the snapshot
	on := true
	res, err := s.ImportHistory(ctx, service.HistoryImportRequest{Source: "codex", Mirror: &on})
	if err != nil || res.Imported != 1 || !res.Mirror {
		t.Fatalf("import %+v %v", res, err)
	}
	var created string
	for created == "" {
		if msg := next(t, ch); msg.Type == run.WatchSessionChanged && msg.Session.Kind == run.SessionCreated {
			created = msg.Session.SessionID
		}
	}
	if srcs, _ := s.HistorySources(ctx); !srcs[0].Mirror {
		t.Fatalf("sources %+v: mirror not on", srcs)
	}

	// The agent finishes the turn (and a resumed one): the mirror adds them.
	fh, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.Write(bytes.Join(lines[cut:], nil)); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	for {
		if msg := next(t, ch); msg.Type == run.WatchSessionChanged && msg.Session.Kind == run.SessionUpdated && msg.Session.SessionID == created {
			break
		}
	}
	runs, err := j.ListRuns(ctx, run.RunFilter{SessionID: created})
	if err != nil || len(runs) != 3 {
		t.Fatalf("%d runs %v", len(runs), err)
	}
	// Continue: an ordinary session from now on; the agent's file (which
	// will hold the app's turns too) no longer feeds it.
	ses, err := s.ContinueSession(ctx, created)
	if err != nil || ses.ImportedFrom != "" || ses.NativeSessionID == "" || ses.Agent != "codex" {
		t.Fatalf("continue: %+v %v", ses, err)
	}
	if _, err := s.StartRun(ctx, run.StartRequest{SessionID: created, Message: "go on"}); service.CodeOf(err) == service.CodeConflict {
		t.Fatalf("a continued session still refuses a message: %v", err)
	}
	// A damaged line in a new file: imported without it, counted, and the
	// sources list says where and why.
	bad := filepath.Join(dir, "rollout-damaged.jsonl")
	if err := os.WriteFile(bad, append([]byte("{not json\n"), full...), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err := s.ImportHistory(ctx, service.HistoryImportRequest{Source: "codex"}); err != nil || res.SkippedLines != 1 {
		t.Fatalf("damaged: %+v %v", res, err)
	}
	if srcs, _ := s.HistorySources(ctx); len(srcs[0].Errors) != 1 || !strings.Contains(srcs[0].Errors[0], "rollout-damaged.jsonl line 1 skipped: not a JSON line") {
		t.Fatalf("sources %+v", srcs)
	}
	_ = os.Remove(bad)
	off := false
	if res, err := s.ImportHistory(ctx, service.HistoryImportRequest{Source: "codex", Mirror: &off}); err != nil || res.Mirror || res.Already != 1 {
		t.Fatalf("mirror off: %+v %v", res, err)
	}
}
