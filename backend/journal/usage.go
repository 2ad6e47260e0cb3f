package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/usage"
)

// usageDaysSQL: one row per local day, project, agent and model, added to
// as each run ends (the deriver's done, in the done event's transaction),
// so totals over a million runs read a few thousand rows
// (docs/ARCHITECTURE.md §Usage). A run is added exactly once: a run has
// one done event (events_one_done). Deleting a session keeps what it spent.
const usageDaysSQL = `
CREATE TABLE usage_days (
	day                TEXT NOT NULL,
	project_id         TEXT NOT NULL,
	agent              TEXT NOT NULL,
	model              TEXT NOT NULL,
	runs               INTEGER NOT NULL DEFAULT 0,
	input_tokens       INTEGER NOT NULL DEFAULT 0,
	output_tokens      INTEGER NOT NULL DEFAULT 0,
	reasoning_tokens   INTEGER NOT NULL DEFAULT 0,
	cached_tokens      INTEGER NOT NULL DEFAULT 0,
	cache_write_tokens INTEGER NOT NULL DEFAULT 0,
	cost_usd           REAL NOT NULL DEFAULT 0,
	unpriced_runs      INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (day, project_id, agent, model)
) WITHOUT ROWID;
-- The latest rate-limit window each vendor's agent reported (a
-- usage.updated with a quota), replaced as newer ones commit.
CREATE TABLE quota_latest (
	vendor  TEXT NOT NULL,
	window  TEXT NOT NULL,
	quota   BLOB NOT NULL,
	seen_at REAL NOT NULL,
	PRIMARY KEY (vendor, window)
) WITHOUT ROWID;
`

// addRunUsage adds one ended run to its day's row. at is the done event's
// time; model is the run row's, used when the agent named none.
func addRunUsage(ctx context.Context, tx *sql.Tx, at float64, projectID, agent, model string, u *run.Usage) error {
	var c run.Usage
	if u != nil {
		c = *u
	}
	if c.Model != "" {
		model = c.Model
	}
	unpriced := 0
	if c.CostUSD == 0 && c.InputTokens+c.OutputTokens > 0 {
		unpriced = 1
	}
	day := time.Unix(int64(at), 0).Local().Format(time.DateOnly)
	_, err := tx.ExecContext(ctx, `INSERT INTO usage_days (day, project_id, agent, model, runs, input_tokens, output_tokens,
		reasoning_tokens, cached_tokens, cache_write_tokens, cost_usd, unpriced_runs) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (day, project_id, agent, model) DO UPDATE SET runs = runs + 1,
		input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
		reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens, cached_tokens = cached_tokens + excluded.cached_tokens,
		cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens, cost_usd = cost_usd + excluded.cost_usd,
		unpriced_runs = unpriced_runs + excluded.unpriced_runs`,
		day, projectID, agent, model, c.InputTokens, c.OutputTokens, c.ReasoningTokens, c.CachedTokens, c.CacheWriteTokens,
		c.CostUSD, unpriced)
	return err
}

// doneUsage adds the run a done event ends to the totals.
func (d *deriver) doneUsage(ctx context.Context, ev run.Event, p run.Done) error {
	var projectID, agent, model string
	if err := d.tx.QueryRowContext(ctx, `SELECT project_id, agent, model FROM runs WHERE id = ?`, d.rc.runID).
		Scan(&projectID, &agent, &model); err != nil {
		return err
	}
	return addRunUsage(ctx, d.tx, ev.CreatedAt, projectID, agent, model, p.Usage)
}

// quotaSeen keeps a reported window as its vendor's latest (an older
// event committed late never replaces a newer one).
func (d *deriver) quotaSeen(ctx context.Context, ev run.Event) error {
	var u run.Usage
	if json.Unmarshal(ev.Payload, &u) != nil || u.Quota == nil || u.Quota.Vendor == "" {
		return nil
	}
	b, err := json.Marshal(u.Quota)
	if err != nil {
		return err
	}
	return d.exec(ctx, `INSERT INTO quota_latest (vendor, window, quota, seen_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (vendor, window) DO UPDATE SET quota = excluded.quota, seen_at = excluded.seen_at
		WHERE excluded.seen_at >= quota_latest.seen_at`, u.Quota.Vendor, u.Quota.Window, b, ev.CreatedAt)
}

// QuotaLatest lists the latest window of every vendor (usage.QuotaSource).
func (s *Store) QuotaLatest(ctx context.Context) ([]usage.Seen, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT quota, seen_at FROM quota_latest ORDER BY vendor, window`)
	if err != nil {
		return nil, s.wrap("read quota", err)
	}
	defer rows.Close()
	var out []usage.Seen
	for rows.Next() {
		var b []byte
		var at float64
		if err := rows.Scan(&b, &at); err != nil {
			return nil, s.wrap("read quota", err)
		}
		var q usage.Seen
		if json.Unmarshal(b, &q.Quota) != nil {
			continue
		}
		q.SeenAt = time.Unix(0, int64(at*1e9))
		out = append(out, q)
	}
	return out, s.wrap("read quota", rows.Err())
}

var _ usage.QuotaSource = (*Store)(nil)

// backfillUsageDays adds the runs that ended before the table existed.
func backfillUsageDays(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT e.created_at, e.payload, r.project_id, r.agent, r.model
		FROM events e JOIN runs r ON r.id = e.run_id WHERE e.type = 'done'`)
	if err != nil {
		return err
	}
	type ended struct {
		at                      float64
		projectID, agent, model string
		usage                   *run.Usage
	}
	var all []ended
	for rows.Next() {
		var e ended
		var payload []byte
		if err := rows.Scan(&e.at, &payload, &e.projectID, &e.agent, &e.model); err != nil {
			rows.Close()
			return err
		}
		var p run.Done
		_ = json.Unmarshal(payload, &p) // a damaged payload still counts the run
		e.usage = p.Usage
		all = append(all, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, e := range all {
		if err := addRunUsage(ctx, tx, e.at, e.projectID, e.agent, e.model, e.usage); err != nil {
			return err
		}
	}
	return nil
}

// UsageDays reads the daily totals from since (YYYY-MM-DD) on, oldest
// first (usage.Source).
func (s *Store) UsageDays(ctx context.Context, since string) ([]usage.Day, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT u.day, u.project_id, COALESCE(p.name, ''), u.agent, u.model, u.runs,
		u.input_tokens, u.output_tokens, u.reasoning_tokens, u.cached_tokens, u.cache_write_tokens, u.cost_usd, u.unpriced_runs
		FROM usage_days u LEFT JOIN projects p ON p.id = u.project_id WHERE u.day >= ? ORDER BY u.day`, since)
	if err != nil {
		return nil, s.wrap("read usage", err)
	}
	defer rows.Close()
	var out []usage.Day
	for rows.Next() {
		var d usage.Day
		if err := rows.Scan(&d.Day, &d.ProjectID, &d.ProjectName, &d.Agent, &d.Model, &d.Runs, &d.InputTokens, &d.OutputTokens,
			&d.ReasoningTokens, &d.CachedTokens, &d.CacheWriteTokens, &d.CostUSD, &d.UnpricedRuns); err != nil {
			return nil, s.wrap("read usage", err)
		}
		out = append(out, d)
	}
	return out, s.wrap("read usage", rows.Err())
}

var _ usage.Source = (*Store)(nil)
