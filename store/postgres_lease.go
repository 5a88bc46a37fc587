package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"cardroom/record"
)

// The PostgreSQL side of Leases (migration 010_leases). Every statement
// is one autocommitted statement that judges expiry by clock_timestamp(),
// the database's clock at that moment (now() would be the start of the
// transaction), so the nodes' clocks never matter. The leases row of a
// table is the point where claims, renewals and fenced appends meet: a
// claim updates it, a fenced append holds it FOR SHARE until its commit,
// so each waits for the other and no append of an old epoch commits after
// a new epoch was handed out.

// Claim implements Leases: an upsert that takes a missing or expired row
// (epoch + 1) and otherwise leaves it alone, and then, if it was not
// taken, reads who holds it.
func (p *Postgres) Claim(ctx context.Context, table, node string, ttl time.Duration) (int64, error) {
	if err := checkLease(table, node, 0, ttl); err != nil {
		return 0, err
	}
	for {
		var epoch int64
		err := p.db.QueryRowContext(ctx, `INSERT INTO leases(table_id, node, epoch, expires)
			VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 microsecond')
			ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, epoch = leases.epoch + 1, expires = excluded.expires
			WHERE leases.expires <= clock_timestamp()
			RETURNING epoch`, table, node, ttl.Microseconds()).Scan(&epoch)
		if err == nil {
			return epoch, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
		held := &LeaseHeldError{Table: table}
		err = p.db.QueryRowContext(ctx, `SELECT node, expires FROM leases WHERE table_id = $1 AND expires > clock_timestamp()`, table).
			Scan(&held.Holder, &held.Until)
		if err == nil {
			return 0, held
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
		// It expired or was released between the two statements: claim again.
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
}

// Renew implements Leases.
func (p *Postgres) Renew(ctx context.Context, table, node string, epoch int64, ttl time.Duration) error {
	if err := checkLease(table, node, epoch, ttl); err != nil {
		return err
	}
	return p.leaseUpdate(ctx, `UPDATE leases SET expires = clock_timestamp() + $4 * interval '1 microsecond'
		WHERE table_id = $1 AND node = $2 AND epoch = $3 AND expires > clock_timestamp()`, table, node, epoch, ttl.Microseconds())
}

// Release implements Leases: the lease expires now and keeps its epoch.
func (p *Postgres) Release(ctx context.Context, table, node string, epoch int64) error {
	if err := checkLease(table, node, epoch, -1); err != nil {
		return err
	}
	return p.leaseUpdate(ctx, `UPDATE leases SET expires = clock_timestamp()
		WHERE table_id = $1 AND node = $2 AND epoch = $3 AND expires > clock_timestamp()`, table, node, epoch)
}

// leaseUpdate runs an update of one's own lease: no row is ErrFenced.
func (p *Postgres) leaseUpdate(ctx context.Context, query string, args ...any) error {
	res, err := p.db.ExecContext(ctx, query, args...)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrFenced
	}
	return nil
}

// AppendFenced implements Leases: the entry joins the group commit with
// its epoch, and the batch's statement writes it only under a live lease
// of that epoch (insertBatch).
func (p *Postgres) AppendFenced(ctx context.Context, table string, epoch int64, seq int, e record.Entry) error {
	if err := checkFenced(table, epoch); err != nil {
		return err
	}
	return p.enqueue(ctx, &pgAppend{appendReq: appendReq{table: table, seq: seq, e: e, reply: make(chan error, 1)}, epoch: epoch})
}
