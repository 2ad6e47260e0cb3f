package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/dirwatch"
)

// TokenFile is the serve token's file name in the data dir.
const TokenFile = "serve.token"

// LoadOrCreateToken returns the bearer token stored in dataDir, creating
// it (32 random bytes, 0600) on first use. A token file readable by others
// is tightened to 0600: it is a password.
func LoadOrCreateToken(dataDir string) (string, error) {
	path := filepath.Join(dataDir, TokenFile)
	b, err := os.ReadFile(path)
	if err == nil {
		tok := strings.TrimSpace(string(b))
		if len(tok) < 32 {
			return "", fmt.Errorf("token file %s is damaged; delete it to make a new token", path)
		}
		if st, err := os.Stat(path); err == nil && st.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(path, 0o600); err != nil {
				return "", fmt.Errorf("token file %s is readable by others and cannot be fixed: %w", path, err)
			}
		}
		return tok, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("read token: %w", err)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("make token: %w", err)
	}
	tok := base64.RawURLEncoding.EncodeToString(raw[:])
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", fmt.Errorf("make token: %w", err)
	}
	tmp, err := os.CreateTemp(dataDir, ".serve-token-*")
	if err != nil {
		return "", fmt.Errorf("write token: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return "", fmt.Errorf("write token: %w", err)
	}
	if _, err := tmp.WriteString(tok + "\n"); err != nil {
		tmp.Close()
		return "", fmt.Errorf("write token: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("write token: %w", err)
	}
	// Link, not rename: if another process made the token meanwhile, keep
	// theirs so both agree.
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return LoadOrCreateToken(dataDir)
		}
		return "", fmt.Errorf("write token: %w", err)
	}
	return tok, nil
}

// tokenSettle is how long WatchToken lets the data dir settle after a change.
const tokenSettle = 100 * time.Millisecond

// WatchToken watches dataDir's token file until ctx ends and calls changed
// with the token to accept from then on: when the file is deleted, a new
// token (the old one is revoked); when it is replaced, its new content; when
// the whole data dir goes, none. This is what makes "delete serve.token"
// revoke the token of a running serve (docs/ARCHITECTURE.md §Security, serve
// mode). The data dir is watched, not polled: an idle serve sleeps
// (§Idle). Without a watch (none to be had) the token stays as it is until
// serve restarts, and the log says so.
//
// The watch is in place when WatchToken returns (it follows the file in a
// goroutine of its own), so a change made after serve printed its link is
// never missed; a change made before it is seen at once.
func WatchToken(ctx context.Context, dataDir, current string, changed func(string), log *slog.Logger) {
	entries, unwatch, err := dirwatch.Changes(dataDir)
	if err != nil {
		log.Warn("httpapi: cannot watch the token file; deleting it takes effect when serve restarts", "err", err)
		return
	}
	gone, ungone, err := dirwatch.Gone(dataDir)
	if err != nil {
		log.Warn("httpapi: cannot watch the data dir", "err", err)
		ungone = func() {}
	}
	go func() {
		defer unwatch()
		defer ungone()
		followToken(ctx, dataDir, current, changed, log, entries, gone)
	}()
}

func followToken(ctx context.Context, dataDir, current string, changed func(string), log *slog.Logger, entries, gone <-chan struct{}) {
	path := filepath.Join(dataDir, TokenFile)
	// A change is looked at once the data dir has been quiet for
	// tokenSettle: deleting the whole data dir removes the token file
	// first, and that must not make a new one inside a folder going away.
	// The first look is at once: the file may have changed between
	// reading the token and setting the watch.
	first := make(chan time.Time, 1)
	first <- time.Time{}
	var settle <-chan time.Time = first
	for {
		select {
		case <-ctx.Done():
			return
		case <-gone:
			// The whole data dir is gone: revoke, but do not recreate it.
			if current != "" {
				changed("")
			}
			return
		case <-entries:
			if settle == nil {
				settle = time.After(tokenSettle)
			}
			continue
		case <-settle:
			settle = nil
		}
		b, err := os.ReadFile(path)
		if err == nil && strings.TrimSpace(string(b)) == current {
			continue
		}
		if _, derr := os.Stat(dataDir); derr != nil {
			// The data dir is going (its entries go first): revoke, but
			// do not recreate it.
			if current != "" {
				current = ""
				changed("")
			}
			continue
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			continue // unreadable for a moment: keep the current token
		}
		tok, err := LoadOrCreateToken(dataDir) // new if deleted; the file's if replaced
		if err != nil {
			// A damaged file: accept no token rather than the revoked one.
			log.Warn("httpapi: the token file changed and cannot be used; refusing every token", "err", err)
			tok = ""
		}
		if tok == current {
			continue
		}
		current = tok
		changed(tok)
	}
}
