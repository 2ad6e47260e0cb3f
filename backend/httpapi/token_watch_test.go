package httpapi

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The token follows its file without polling: deleted (a new token),
// replaced (the file's), the data dir gone (none).
func TestWatchTokenFollowsTheFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	tok, err := LoadOrCreateToken(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	WatchToken(ctx, dir, tok, func(s string) { got <- s }, slog.New(slog.DiscardHandler))
	next := func(what string) string {
		t.Helper()
		select {
		case s := <-got:
			return s
		case <-time.After(20 * time.Second):
			t.Fatalf("no token change after %s", what)
			return ""
		}
	}
	// The watch is in place when WatchToken returns: one deletion is seen.
	path := filepath.Join(dir, TokenFile)
	os.Remove(path)
	if s := next("deleting the file"); s == tok || s == "" {
		t.Fatalf("deleting the file gave %q", s)
	} else {
		tok = s
	}
	b, _ := os.ReadFile(path)
	if strings.TrimSpace(string(b)) != tok {
		t.Fatalf("the new token %q is not the file's %q", tok, b)
	}
	replaced := strings.Repeat("r", 43)
	tmp := filepath.Join(dir, ".replace")
	os.WriteFile(tmp, []byte(replaced+"\n"), 0o600)
	os.Rename(tmp, path)
	if s := next("replacing the file"); s != replaced {
		t.Fatalf("replaced: got %q", s)
	}
	os.RemoveAll(dir)
	if s := next("deleting the data dir"); s != "" {
		t.Fatalf("data dir gone: got %q, want no token", s)
	}
}
