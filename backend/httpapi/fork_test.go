package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// POST /api/sessions/{id}/fork is a thin door: its body's turn reaches the
// service, whose refusals keep their status (the fork itself is tested
// through the service, service/fork_test.go).
func TestForkRoute(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	code, body := e.do(t, "POST", "/api/sessions/ses_1/fork", `{"turn":"t1"}`, nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "checkpoints are not available") {
		t.Fatalf("without checkpoints: %d %s", code, body)
	}
	code, body = e.do(t, "POST", "/api/sessions/ses_1/fork", `{"turn":`, nil)
	if code != http.StatusBadRequest {
		t.Fatalf("a bad body: %d %s", code, body)
	}
}
