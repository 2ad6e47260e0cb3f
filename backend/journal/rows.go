package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// What every resource of the journal does the same way (docs/ARCHITECTURE.md
// §Journal): read one row by id and a list, each row read by the
// resource's scanX, and change (update or delete) one row by id.

// rowScanner is a row or rows being read: what every scanX takes.
type rowScanner = interface{ Scan(...any) error }

// oneOf reads the row query finds for id with scan; no row is
// ErrNotFound, said "journal: <noun> <id>".
func oneOf[T any](ctx context.Context, s *Store, noun, id string, scan func(rowScanner) (T, error), query string) (T, error) {
	v, err := scan(s.db.QueryRowContext(ctx, query, id))
	if errors.Is(err, sql.ErrNoRows) {
		var none T
		return none, fmt.Errorf("journal: %s %s: %w", noun, id, ErrNotFound)
	}
	if err != nil {
		var none T
		return none, s.wrap("get "+noun+" "+id, err)
	}
	return v, nil
}

// listOf runs query and reads each row with scan, in order; what names
// the read in an error. No row is a nil list.
func listOf[T any](ctx context.Context, s *Store, what string, scan func(rowScanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, s.wrap(what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, s.wrap(what, err)
		}
		out = append(out, v)
	}
	return out, s.wrap(what, rows.Err())
}

// changeOne runs query, an UPDATE or DELETE of the row of id; no row
// changed is ErrNotFound, said "journal: <noun> <id>"; op names the change
// in any other error.
func (s *Store) changeOne(ctx context.Context, op, noun, id, query string, args ...any) error {
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return s.wrap(op, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("journal: %s %s: %w", noun, id, ErrNotFound)
	}
	return nil
}
