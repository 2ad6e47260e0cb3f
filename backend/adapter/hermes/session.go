package hermes

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "github.com/mattn/go-sqlite3" // Hermes keeps its sessions in SQLite
)

// errNoSession: Hermes recorded no session for the turn.
var errNoSession = errors.New("hermes: no session recorded")

// newestSession reads the id of the newest session tagged source that
// started at or after since from $HERMES_HOME/state.db. Quiet mode prints
// the id only on stderr, which belongs to the run's log, so the profile's
// own session store is the reliable place to learn it.
func newestSession(ctx context.Context, home, source string, since time.Time) (string, error) {
	path := filepath.Join(home, "state.db")
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%w: %w", errNoSession, err)
	}
	db, err := sql.Open("sqlite3", "file:"+url.PathEscape(path)+"?mode=ro&_busy_timeout=2000")
	if err != nil {
		return "", fmt.Errorf("hermes: open state.db: %w", err)
	}
	defer db.Close()
	var id string
	err = db.QueryRowContext(ctx, `SELECT id FROM sessions WHERE source = ? AND started_at >= ? ORDER BY started_at DESC LIMIT 1`,
		source, float64(since.UnixMilli())/1000).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errNoSession
	}
	if err != nil {
		return "", fmt.Errorf("hermes: read state.db: %w", err)
	}
	return id, nil
}
