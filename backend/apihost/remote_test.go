package apihost

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The supervisor serves other hosts' APIs under /api/hosts/{host}/… and
// hands backend/hosts the follower to give links to (docs/ARCHITECTURE.md
// §Remote cores).
func TestSupervisorFollowsHosts(t *testing.T) {
	dataDir, err := os.MkdirTemp("", "hd-remote-host-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dataDir) })
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(dataDir, "rt"))
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	b, err := Open(context.Background(), Options{DataDir: dataDir, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Remote() == nil {
		t.Fatal("the supervisor follows no hosts")
	}
	status, body := b.Handler().Do("GET", "/api/hosts/devbox/projects", "")
	if status != 404 || !strings.Contains(body, "no host named devbox") {
		t.Fatalf("an unknown host: %d %s", status, body)
	}
}
