package cli

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// Deleting serve.token revokes the token of a running serve: the old one
// is refused from then on, a new one is made and its login link printed.
func TestDeletingTheTokenFileRevokesIt(t *testing.T) {
	s := startServe(t, newDataDir(t))
	defer s.stop()
	status := func(tok string) int {
		req, _ := http.NewRequest("GET", s.url+"/api/projects", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := status(s.token); got != 200 {
		t.Fatalf("with the token: %d", got)
	}
	if err := os.Remove(filepath.Join(s.dataDir, httpapi.TokenFile)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for status(s.token) != http.StatusUnauthorized {
		if time.Now().After(deadline) {
			t.Fatal("the deleted token is still accepted")
		}
		time.Sleep(10 * time.Millisecond)
	}
	b, err := os.ReadFile(filepath.Join(s.dataDir, httpapi.TokenFile))
	if err != nil {
		t.Fatalf("no new token file: %v", err)
	}
	fresh := strings.TrimSpace(string(b))
	if fresh == s.token || status(fresh) != 200 {
		t.Fatalf("the new token %q is not the one accepted", fresh)
	}
	if !strings.Contains(s.out.String(), "/?token="+fresh) {
		t.Fatalf("the new login link was not printed:\n%s", s.out.String())
	}
}
