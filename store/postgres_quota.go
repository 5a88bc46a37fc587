package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// The PostgreSQL side of Quotas (migration 017_quota_buckets). Each take
// is one autocommitted upsert, so two nodes taking from one bucket at once
// are ordered by its row lock and never both take its last token; the
// refill is counted by the database's clock (clock_timestamp(), carried in
// the proposed row as EXCLUDED.at), so the nodes' clocks never matter.

// TakeQuota implements Quotas.
func (p *Postgres) TakeQuota(ctx context.Context, kind, key string, rate, burst float64) (bool, time.Duration, error) {
	if err := checkQuota(kind, key, rate, burst); err != nil {
		return false, 0, err
	}
	var left float64
	err := p.db.QueryRowContext(ctx, `
INSERT INTO quota_buckets AS q (kind, key, tokens, rate, burst, at)
VALUES ($1, $2, $4::float8 - 1, $3, $4, clock_timestamp())
ON CONFLICT (kind, key) DO UPDATE
SET tokens = LEAST(EXCLUDED.burst, q.tokens + GREATEST(0, EXTRACT(EPOCH FROM EXCLUDED.at - q.at)::float8) * EXCLUDED.rate) - 1,
    rate = EXCLUDED.rate, burst = EXCLUDED.burst, at = EXCLUDED.at
WHERE LEAST(EXCLUDED.burst, q.tokens + GREATEST(0, EXTRACT(EPOCH FROM EXCLUDED.at - q.at)::float8) * EXCLUDED.rate) >= 1
RETURNING tokens`, kind, key, rate, burst).Scan(&left)
	if err == nil {
		return true, 0, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return false, 0, err
	}
	// Refused (the upsert's condition did not hold): how long until one
	// token, from what the bucket holds now.
	var now float64
	err = p.db.QueryRowContext(ctx, `
SELECT LEAST(burst, tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - at)::float8) * rate)
FROM quota_buckets WHERE kind = $1 AND key = $2`, kind, key).Scan(&now)
	if errors.Is(err, sql.ErrNoRows) {
		return false, time.Second, nil // purged in between: try again
	}
	if err != nil {
		return false, 0, err
	}
	wait := time.Duration(max(1-now, 0) / rate * float64(time.Second))
	return false, max(wait, time.Millisecond), nil
}

// RefundQuota implements Quotas.
func (p *Postgres) RefundQuota(ctx context.Context, kind, key string) error {
	_, err := p.db.ExecContext(ctx, `UPDATE quota_buckets SET tokens = LEAST(burst, tokens + 1) WHERE kind = $1 AND key = $2`, kind, key)
	return err
}

// PurgeQuotas implements Quotas.
func (p *Postgres) PurgeQuotas(ctx context.Context) (int, error) {
	res, err := p.db.ExecContext(ctx, `
DELETE FROM quota_buckets
WHERE tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - at)::float8) * rate >= burst`)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
