package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// The SQL side of Analyses (migration 010_analyses), written on sqlStore
// with numbered parameters so that the PostgreSQL store can serve it with
// the same two wrappers.

func init() {
	// The table of 010_analyses is Cardroom's (identity.go).
	ourTables["analyses"] = true
}

// SaveAnalysis implements Analyses.
func (s *SQLite) SaveAnalysis(ctx context.Context, a Analysis) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().saveAnalysis(ctx, a)
}

// Analysis implements Analyses.
func (s *SQLite) Analysis(ctx context.Context, table string, seat int) (Analysis, error) {
	return s.sq().analysis(ctx, table, seat)
}

func (s sqlStore) saveAnalysis(ctx context.Context, a Analysis) error {
	if err := checkAnalysis(a); err != nil {
		return err
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO analyses(table_id, seat, status, data, created) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT(table_id, seat) DO UPDATE SET status = excluded.status, data = excluded.data, created = excluded.created`,
		a.Table, a.Seat, a.Status, string(a.Data), a.Created.UnixMilli())
	return err
}

func (s sqlStore) analysis(ctx context.Context, table string, seat int) (Analysis, error) {
	a := Analysis{Table: table, Seat: seat}
	var data string
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT status, data, created FROM analyses WHERE table_id = $1 AND seat = $2`, table, seat).
		Scan(&a.Status, &data, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Analysis{}, ErrNotFound
	}
	if err != nil {
		return Analysis{}, err
	}
	a.Data, a.Created = []byte(data), time.UnixMilli(created).UTC()
	return a, nil
}
