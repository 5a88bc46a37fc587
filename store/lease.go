package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"cardroom/record"
)

// Table ownership for a cluster of nodes (issue 15; docs/cluster.md): a
// table is played by the one node that holds its lease, and every entry
// that node logs carries the lease's epoch, so a node that lost the lease
// (it stalled past the expiry, or was cut off while another claimed the
// table) can never write to the log again: fencing. Without the epoch on
// the write, a node that wakes from a long pause would append moves the
// new owner never saw, and two nodes would play one table.

// ErrLeaseHeld is returned by Claim when another node holds the table's
// lease; the error is a *LeaseHeldError that names it.
var ErrLeaseHeld = errors.New("lease held")

// ErrFenced is returned by Renew, Release and AppendFenced when the epoch
// is no longer the table's current lease (it expired, or another node has
// claimed the table since): nothing was written.
var ErrFenced = errors.New("fenced: the table's lease is lost")

// ErrLeaseInput is returned for a claim, renewal or fenced append whose
// arguments are out of range; nothing is written.
var ErrLeaseInput = errors.New("bad lease request")

// LeaseHeldError says who holds a lease a node could not claim.
type LeaseHeldError struct {
	Table  string
	Holder string    // the node holding it
	Until  time.Time // its expiry, by the store's clock
}

func (e *LeaseHeldError) Error() string {
	return fmt.Sprintf("table %s: lease held by node %q until %s", e.Table, e.Holder, e.Until.UTC().Format(time.RFC3339Nano))
}

func (e *LeaseHeldError) Unwrap() error { return ErrLeaseHeld }

// Bounds of a lease request.
const (
	MinLeaseTTL = time.Millisecond
	MaxLeaseTTL = time.Hour // a longer lease would leave a dead node's tables unplayed that long
	MaxNodeName = 200       // bytes
)

// Leases is table ownership with fencing, beside Store (the PostgreSQL
// store and Memory implement it; the SQLite store is one node and has no
// use for it). Expiry is judged by the store's clock (the database's
// clock_timestamp() for PostgreSQL), never by the nodes', so nodes whose
// clocks disagree still agree on who owns a table.
type Leases interface {
	// Claim takes the table's lease for node for ttl if it is free or
	// expired, and returns its epoch: larger than every epoch the table
	// had before. A lease held by a node (this one included) and not
	// expired is refused with a *LeaseHeldError (errors.Is ErrLeaseHeld).
	Claim(ctx context.Context, table, node string, ttl time.Duration) (epoch int64, err error)
	// Renew extends node's lease to ttl from now, or returns ErrFenced if
	// the lease at epoch is not node's any more (expired, claimed or
	// released): an expired lease is lost even if nobody claimed it yet,
	// since its owner's fenced appends were refused from the expiry on.
	Renew(ctx context.Context, table, node string, epoch int64, ttl time.Duration) error
	// Release gives the lease up (it expires now; its epoch stays, so the
	// next claim's is larger). ErrFenced if it was not node's at epoch.
	Release(ctx context.Context, table, node string, epoch int64) error
	// AppendFenced is Store.Append that commits only while epoch is the
	// table's current, unexpired lease, checked in the same transaction as
	// the insert; otherwise it returns ErrFenced and writes nothing. The
	// rules of Append hold: nil only for a committed entry, an error only
	// for one not committed, ErrConflict for a seq already logged.
	AppendFenced(ctx context.Context, table string, epoch int64, seq int, e record.Entry) error
	// UpdateTableFenced is Store.UpdateTable under the same condition as
	// AppendFenced: a table's seats and status are written only by its
	// current owner, or ErrFenced and nothing is written.
	UpdateTableFenced(ctx context.Context, t Table, epoch int64) error
	// RenewAll renews, in one statement, every lease node holds at the
	// given epochs (table id → epoch; at most MaxRenewBatch), and returns
	// the tables whose lease is lost (ErrFenced for each in Renew's terms).
	// A node renews its whole set this way each third of the ttl, so a
	// thousand tables cost one round trip, not a thousand.
	RenewAll(ctx context.Context, node string, held map[string]int64, ttl time.Duration) (lost []string, err error)
	// Orphans lists up to limit unfinished tables (open or playing) whose
	// lease is missing or expired: the tables nobody plays, which a node
	// of the cluster should claim (a dead node's, or all of them after the
	// whole cluster restarted).
	Orphans(ctx context.Context, limit int) ([]string, error)
}

// MaxRenewBatch bounds the leases one RenewAll renews (one statement's
// arrays). A node holding more renews in several batches.
const MaxRenewBatch = 10000

var _ Leases = (*Memory)(nil)

// checkLease range-checks a lease request's arguments (ttl < 0 skips the
// ttl check: Release has none).
func checkLease(table, node string, epoch int64, ttl time.Duration) error {
	switch {
	case table == "":
		return fmt.Errorf("%w: no table", ErrLeaseInput)
	case node == "" || len(node) > MaxNodeName:
		return fmt.Errorf("%w: a node name is 1 to %d bytes, not %d", ErrLeaseInput, MaxNodeName, len(node))
	case epoch < 0:
		return fmt.Errorf("%w: epoch %d", ErrLeaseInput, epoch)
	case ttl >= 0 && (ttl < MinLeaseTTL || ttl > MaxLeaseTTL):
		return fmt.Errorf("%w: ttl %v: want %v to %v", ErrLeaseInput, ttl, MinLeaseTTL, MaxLeaseTTL)
	}
	return nil
}

// checkFenced range-checks a fenced append's table and epoch.
func checkFenced(table string, epoch int64) error {
	if epoch <= 0 {
		return fmt.Errorf("%w: table %s: epoch %d (epochs start at 1)", ErrLeaseInput, table, epoch)
	}
	return nil
}

// memLease is one table's lease in Memory.
type memLease struct {
	node    string
	epoch   int64
	expires time.Time
}

// live reports whether the lease is held at now.
func (l memLease) live(now time.Time) bool { return now.Before(l.expires) }

// Claim implements Leases (Go's clock stands in for the database's).
func (m *Memory) Claim(_ context.Context, table, node string, ttl time.Duration) (int64, error) {
	if err := checkLease(table, node, 0, ttl); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.leases == nil {
		m.leases = map[string]memLease{}
	}
	now := time.Now()
	l := m.leases[table]
	if l.epoch > 0 && l.live(now) {
		return 0, &LeaseHeldError{Table: table, Holder: l.node, Until: l.expires}
	}
	l = memLease{node: node, epoch: l.epoch + 1, expires: now.Add(ttl)}
	m.leases[table] = l
	return l.epoch, nil
}

// held returns the table's lease if node holds it live at epoch.
func (m *Memory) held(table, node string, epoch int64, now time.Time) (memLease, bool) {
	l, ok := m.leases[table]
	return l, ok && l.epoch == epoch && (node == "" || l.node == node) && l.live(now)
}

// Renew implements Leases.
func (m *Memory) Renew(_ context.Context, table, node string, epoch int64, ttl time.Duration) error {
	if err := checkLease(table, node, epoch, ttl); err != nil {
		return err
	}
	return m.setExpiry(table, node, epoch, ttl)
}

// setExpiry moves a held lease's expiry to ttl from now (0: now, a
// release), or returns ErrFenced.
func (m *Memory) setExpiry(table, node string, epoch int64, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	l, ok := m.held(table, node, epoch, now)
	if !ok {
		return ErrFenced
	}
	l.expires = now.Add(ttl)
	m.leases[table] = l
	return nil
}

// Release implements Leases.
func (m *Memory) Release(_ context.Context, table, node string, epoch int64) error {
	if err := checkLease(table, node, epoch, -1); err != nil {
		return err
	}
	return m.setExpiry(table, node, epoch, 0)
}

// AppendFenced implements Leases: the lease check and the append under
// one lock.
func (m *Memory) AppendFenced(ctx context.Context, table string, epoch int64, seq int, e record.Entry) error {
	if err := checkFenced(table, epoch); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, ok := m.held(table, "", epoch, time.Now()); !ok {
		return ErrFenced
	}
	return m.appendLocked(ctx, table, seq, e)
}

// UpdateTableFenced implements Leases.
func (m *Memory) UpdateTableFenced(ctx context.Context, t Table, epoch int64) error {
	if err := checkFenced(t.ID, epoch); err != nil {
		return err
	}
	m.mu.Lock()
	_, ok := m.held(t.ID, "", epoch, time.Now())
	m.mu.Unlock()
	if !ok {
		return ErrFenced
	}
	// Memory is one process: nothing can claim between the check and the
	// update that matters to a test.
	return m.UpdateTable(ctx, t)
}

// RenewAll implements Leases.
func (m *Memory) RenewAll(_ context.Context, node string, held map[string]int64, ttl time.Duration) ([]string, error) {
	if err := checkRenewAll(node, held, ttl); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	var lost []string
	for table, epoch := range held {
		l, ok := m.held(table, node, epoch, now)
		if !ok {
			lost = append(lost, table)
			continue
		}
		l.expires = now.Add(ttl)
		m.leases[table] = l
	}
	sort.Strings(lost)
	return lost, nil
}

// Orphans implements Leases.
func (m *Memory) Orphans(_ context.Context, limit int) ([]string, error) {
	if limit < 1 || limit > MaxRenewBatch {
		return nil, fmt.Errorf("%w: orphans limit %d: want 1 to %d", ErrLeaseInput, limit, MaxRenewBatch)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	var out []string
	for id, t := range m.tables {
		if l, ok := m.leases[id]; IsUnfinished(t.Status) && (!ok || !l.live(now)) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// checkRenewAll range-checks a RenewAll request.
func checkRenewAll(node string, held map[string]int64, ttl time.Duration) error {
	if len(held) > MaxRenewBatch {
		return fmt.Errorf("%w: %d leases in one renewal, at most %d", ErrLeaseInput, len(held), MaxRenewBatch)
	}
	for table, epoch := range held {
		if err := checkLease(table, node, epoch, ttl); err != nil {
			return err
		}
		if epoch == 0 {
			return fmt.Errorf("%w: table %s: epoch 0", ErrLeaseInput, table)
		}
	}
	return checkLease("-", node, 0, ttl)
}
