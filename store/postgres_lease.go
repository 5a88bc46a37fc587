package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

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
		epoch, err := p.claimOnce(ctx, table, node, ttl)
		if err == nil {
			return epoch, nil
		}
		if isLockTimeout(err) {
			// Its holder is inside a transaction on the row (stopped
			// there, or slow): held for now, whatever its expiry says.
			held := &LeaseHeldError{Table: table}
			p.db.QueryRowContext(ctx, `SELECT node, expires FROM leases WHERE table_id = $1`, table).Scan(&held.Holder, &held.Until)
			return 0, held
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

// claimLockWait bounds how long a claim waits for the lease row's lock: an
// append's transaction holds it (FOR SHARE) while it commits, which takes
// milliseconds; a longer wait is a holder stopped inside its transaction
// (idle_in_transaction_session_timeout ends that in time), and the claim
// answers held rather than stall the sweep that tries every table.
const claimLockWait = 500 * time.Millisecond

// claimOnce is Claim's upsert: sql.ErrNoRows when the row is held, a
// lock timeout when its lock could not be had within claimLockWait.
func (p *Postgres) claimOnce(ctx context.Context, table, node string, ttl time.Duration) (int64, error) {
	tx, err := p.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`SET LOCAL lock_timeout = %d`, claimLockWait.Milliseconds())); err != nil {
		return 0, err
	}
	var epoch int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO leases(table_id, node, epoch, expires)
		VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 microsecond')
		ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, epoch = leases.epoch + 1, expires = excluded.expires
		WHERE leases.expires <= clock_timestamp()
		RETURNING epoch`, table, node, ttl.Microseconds()).Scan(&epoch); err != nil {
		return 0, err
	}
	return epoch, tx.Commit()
}

// isLockTimeout reports PostgreSQL's lock_not_available (55P03).
func isLockTimeout(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "55P03"
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

// UpdateTableFenced implements Leases: the lease row is read FOR SHARE in
// the update's transaction, so a claim waits for the update to commit and
// an update under a lost epoch writes nothing.
func (p *Postgres) UpdateTableFenced(ctx context.Context, t Table, epoch int64) error {
	if err := checkFenced(t.ID, epoch); err != nil {
		return err
	}
	return p.sql.updateTableIf(ctx, t, leaseHeld(ctx, t.ID, epoch))
}

// AppendChatFenced implements FencedChat: the lease row is read FOR SHARE
// in the line's transaction, as UpdateTableFenced does.
func (p *Postgres) AppendChatFenced(ctx context.Context, l ChatLine, keep int, epoch int64) error {
	if err := checkFenced(l.Table, epoch); err != nil {
		return err
	}
	return p.sql.appendChatIf(ctx, l, keep, leaseHeld(ctx, l.Table, epoch))
}

// leaseHeld is the check of a fenced write's transaction: the table's
// lease is live at epoch (ErrFenced otherwise), and its row is locked FOR
// SHARE until the commit, so a claim waits for the write to commit.
func leaseHeld(ctx context.Context, table string, epoch int64) func(*sql.Tx) error {
	return func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM leases WHERE table_id = $1 AND epoch = $2 AND expires > clock_timestamp() FOR SHARE`,
			table, epoch).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrFenced
		}
		return err
	}
}

// RenewAll implements Leases: one UPDATE over the arrays of tables and
// epochs; the rows it did not return are lost.
func (p *Postgres) RenewAll(ctx context.Context, node string, held map[string]int64, ttl time.Duration) ([]string, error) {
	if err := checkRenewAll(node, held, ttl); err != nil {
		return nil, err
	}
	if len(held) == 0 {
		return nil, nil
	}
	ids := make([]string, 0, len(held))
	epochs := make([]int64, 0, len(held))
	for id, e := range held {
		ids = append(ids, id)
		epochs = append(epochs, e)
	}
	// The rows are locked in table order, as the group commit's batch
	// locks them (insertBatch): two statements that lock several leases
	// rows in different orders deadlock under load.
	rows, err := p.db.QueryContext(ctx, `WITH lk AS (
			SELECT l.table_id FROM leases l JOIN unnest($3::text[], $4::bigint[]) AS h(table_id, epoch)
				ON l.table_id = h.table_id AND l.epoch = h.epoch
			WHERE l.node = $1 AND l.expires > clock_timestamp()
			ORDER BY l.table_id
			FOR UPDATE OF l
		)
		UPDATE leases l SET expires = clock_timestamp() + $2 * interval '1 microsecond'
		FROM lk WHERE l.table_id = lk.table_id
		RETURNING l.table_id`, node, ttl.Microseconds(), ids, epochs)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	kept := make(map[string]bool, len(held))
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		kept[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var lost []string
	for _, id := range ids {
		if !kept[id] {
			lost = append(lost, id)
		}
	}
	sort.Strings(lost)
	return lost, nil
}

// Orphans implements Leases.
func (p *Postgres) Orphans(ctx context.Context, limit int) ([]string, error) {
	if limit < 1 || limit > MaxRenewBatch {
		return nil, fmt.Errorf("%w: orphans limit %d: want 1 to %d", ErrLeaseInput, limit, MaxRenewBatch)
	}
	rows, err := p.db.QueryContext(ctx, `SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id
		WHERE t.status IN ($1, $2) AND (l.table_id IS NULL OR l.expires <= clock_timestamp())
		ORDER BY t.id LIMIT $3`, StatusOpen, StatusPlaying, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
