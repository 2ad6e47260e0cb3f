package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

type oneAnswer struct{ c run.Conflicts }

func (oneAnswer) FilesChanged(string, string) {}
func (o oneAnswer) Conflicts(projectID string) (run.Conflicts, bool) {
	return o.c, o.c.ProjectID == projectID
}

// GET /api/projects/{id}/conflicts answers the radar's overlaps and order;
// before the radar's first look, an empty answer; an unknown project 404.
func TestConflictsRoute(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	p, err := e.mem.CreateProject(context.Background(), "p", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	code, body := e.do(t, "GET", "/api/projects/"+p.ID+"/conflicts", "", nil)
	var got run.Conflicts
	if code != http.StatusOK || json.Unmarshal([]byte(body), &got) != nil || got.Overlaps == nil || len(got.Overlaps) != 0 {
		t.Fatalf("before the radar: %d %s", code, body)
	}
	e.svc.SetRadar(oneAnswer{run.Conflicts{ProjectID: p.ID, Order: []string{"wsp_b", "wsp_a"},
		Overlaps: []run.Overlap{{A: run.OverlapSide{WorkspaceID: "wsp_a"}, B: run.OverlapSide{WorkspaceID: "wsp_b"},
			Files: []run.OverlapFile{{Path: "api/server.go"}}}}}})
	code, body = e.do(t, "GET", "/api/projects/"+p.ID+"/conflicts", "", nil)
	if code != http.StatusOK || json.Unmarshal([]byte(body), &got) != nil || len(got.Overlaps) != 1 || got.Order[0] != "wsp_b" {
		t.Fatalf("with an overlap: %d %s", code, body)
	}
	if code, body = e.do(t, "GET", "/api/projects/prj_none/conflicts", "", nil); code != http.StatusNotFound {
		t.Fatalf("unknown project: %d %s", code, body)
	}
}
