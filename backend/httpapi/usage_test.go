package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/service/servicetest"
	"github.com/hermesdesk/hermesdesk/backend/usage"
)

// TestUsageAPI: GET /api/usage over a real journal whose runs ended with
// usage (docs/ARCHITECTURE.md §Usage).
func TestUsageAPI(t *testing.T) {
	ctx := context.Background()
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	p, err := j.CreateProject(ctx, "site", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		agent string
		u     run.Usage
	}{
		{"codex", run.Usage{InputTokens: 100, OutputTokens: 10, CostUSD: 0.5, Model: "gpt-5"}},
		{"claude", run.Usage{InputTokens: 40, OutputTokens: 4, CostUSD: 1, Model: "claude-sonnet-4-5"}},
		{"codex", run.Usage{InputTokens: 1, OutputTokens: 1, Model: "gpt-9"}},
	} {
		ses, err := j.CreateSession(ctx, run.Session{ProjectID: p.ID, Agent: r.agent})
		if err != nil {
			t.Fatal(err)
		}
		sub, err := j.Submit(ctx, run.SubmitRequest{SessionID: ses.ID, Message: "hi"})
		if err != nil {
			t.Fatal(err)
		}
		w, err := j.OpenWriter(ctx, sub.Run.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.agent == "codex" && r.u.Model == "gpt-5" {
			used := 72.0
			if _, err := w.AppendSync(ctx, run.EventUsageUpdated, run.Usage{Quota: &run.Quota{Vendor: "codex", Window: "5-hour", UsedPercent: &used}}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.AppendSync(ctx, run.EventDone, run.Done{Status: run.StatusCompleted, Usage: &r.u}); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	m := servicetest.NewMem()
	srv := httptest.NewServer(httpapi.New(service.New(j, m, m, service.Options{Log: quiet}), httpapi.Config{Token: testToken, Log: quiet}))
	defer srv.Close()
	e := &env{srv: srv}

	code, body := e.do(t, "GET", "/api/usage?group=agent", "", nil)
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	var rep usage.Report
	if err := json.Unmarshal([]byte(body), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 2 || rep.Rows[0].Key != "claude" || rep.Rows[1].Key != "codex" || rep.Rows[1].Runs != 2 ||
		rep.Rows[1].UnpricedRuns != 1 || rep.Total.CostUSD != 1.5 || rep.PriceDate == "" {
		t.Fatalf("by agent = %s", body)
	}

	code, body = e.do(t, "GET", "/api/usage?group=model&format=csv", "", nil)
	var file service.Export
	if code != 200 || json.Unmarshal([]byte(body), &file) != nil || file.ContentType != "text/csv" ||
		!strings.Contains(file.Content, "\ngpt-9,1,1,0,0,1,0,0.000000,1\n") || !strings.HasSuffix(file.Filename, ".csv") {
		t.Fatalf("csv: %d %s", code, body)
	}

	code, body = e.do(t, "GET", "/api/usage/quota", "", nil)
	if code != 200 || !strings.Contains(body, `"line":"Codex: 72 % of the 5-hour window"`) {
		t.Fatalf("quota: %d %s", code, body)
	}

	for _, bad := range []string{"?group=week", "?since=last-week", "?format=xml"} {
		if code, body := e.do(t, "GET", "/api/usage"+bad, "", nil); code != 400 || errCode(t, body) != "bad_request" {
			t.Errorf("%s: %d %s", bad, code, body)
		}
	}
}

// TestUsageAPIWithoutTotals: a store with no usage rows says so.
func TestUsageAPIWithoutTotals(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	code, body := e.do(t, "GET", "/api/usage", "", nil)
	if code < 500 || !strings.Contains(body, "usage totals are not available here") {
		t.Fatalf("%d %s", code, body)
	}
}
