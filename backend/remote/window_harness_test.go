//go:build unix

package remote_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/apihost"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// socketLink is a host whose core answers on a local socket as it is: the
// SSH forward's place while backend/hosts' links are not handed to the
// supervisor yet (docs/ARCHITECTURE.md §Remote cores, "Wiring").
type socketLink struct{ host, socket string }

func (l socketLink) Host() string        { return l.host }
func (l socketLink) Socket() string      { return l.socket }
func (l socketLink) Up() <-chan struct{} { return nil }

// TestWindowHarness is not a test of its own: scripts/e2e-hosts.sh runs it
// as the supervisor of HERMESDESK_E2E_LOCAL (a real local core through
// apihost) following the real core of HERMESDESK_E2E_HOST as the host
// "devbox", so the real `serve` in front of it shows the window a host
// (frontend/e2e/hosts.mjs). It writes "ready" into HERMESDESK_E2E_READY
// once following and holds until SIGTERM.
func TestWindowHarness(t *testing.T) {
	local, hostDir, ready := os.Getenv("HERMESDESK_E2E_LOCAL"), os.Getenv("HERMESDESK_E2E_HOST"), os.Getenv("HERMESDESK_E2E_READY")
	if local == "" || hostDir == "" || ready == "" {
		t.Skip("run by scripts/e2e-hosts.sh")
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	b, err := apihost.Open(ctx, apihost.Options{DataDir: local, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Remote() == nil {
		t.Fatal("another process supervises the local data dir")
	}
	b.Remote().Follow(socketLink{host: "devbox", socket: httpapi.SocketPath(hostDir)})
	if err := os.WriteFile(filepath.Clean(ready), []byte("ready\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
}
