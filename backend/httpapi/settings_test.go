package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// Invalid agent settings are refused when saved, with a plain 400 naming
// the field, and nothing of the request is stored.
func TestPutSettingsValidatesAgentSettings(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	code, body := e.do(t, "PUT", "/api/settings", `{"agents.claude":{"command":"claude --fast"},"theme":"dark"}`, nil)
	if code != http.StatusBadRequest || errCode(t, body) != "bad_request" || !strings.Contains(body, "command") {
		t.Fatalf("%d %s", code, body)
	}
	if code, body := e.do(t, "GET", "/api/settings", "", nil); code != 200 || strings.Contains(body, "theme") || strings.Contains(body, "claude") {
		t.Fatalf("something was stored: %d %s", code, body)
	}
	if code, body := e.do(t, "PUT", "/api/settings", `{"agents.claude":{"command":["claude","--fast"]}}`, nil); code != 200 {
		t.Fatalf("valid settings: %d %s", code, body)
	}
}
