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
	done := make(chan struct{})
	go func() {
		defer close(done)
		WatchToken(ctx, dir, tok, func(s string) { got <- s }, slog.New(slog.DiscardHandler))
	}()
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
	// The watch may start after the first deletion below: put the same
	// token back (no change) and delete it again until one is seen.
	path := filepath.Join(dir, TokenFile)
	for {
		if _, err := os.Stat(path); err != nil {
			tmp := filepath.Join(dir, ".put-back")
			os.WriteFile(tmp, []byte(tok+"\n"), 0o600)
			os.Rename(tmp, path)
		}
		os.Remove(path)
		select {
		case s := <-got:
			if s == tok || s == "" {
				t.Fatalf("deleting the file gave %q", s)
			}
			tok = s
		case <-time.After(300 * time.Millisecond):
			continue
		}
		break
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
	<-done
}
