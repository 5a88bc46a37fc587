package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"cardroom/game"
	"cardroom/rating"
	"cardroom/record"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Postgres is the Store of a cluster of nodes (docs/cluster.md): every
// node keeps the room in one PostgreSQL database, and table ownership
// goes through leases with fencing (Leases, lease.go).
//
// It runs on database/sql with pgx as the driver (pgx/v5/stdlib) rather
// than on pgxpool directly, so that it shares with the SQLite store the
// SQL both engines read (sqlStore: sessions, tables, accounts, ratings,
// bots, chat) and the code that scans rows; pgx still supplies the wire
// protocol, the SQLSTATE of every error (*pgconn.PgError) and array
// parameters, which carry a whole group commit in one statement.
//
// # Appends
//
// As in the SQLite store, appends queue for one writer goroutine that
// commits them in batches (one INSERT … SELECT FROM unnest(…) in one
// transaction), with the same request states (appendReq: queued, taken,
// abandoned) and so the same rules: nil only for a committed entry, an
// error only for one not committed, a caller whose ctx ends while queued
// gets ctx's error and its entry is dropped, and a taken entry's caller
// waits for the commit's outcome. A batch that fails on a unique
// violation (SQLSTATE 23505, the (table_id, seq) key) is retried entry by
// entry so only the conflicting entry gets ErrConflict; any other failure
// fails the whole batch.
//
// Over a network a COMMIT can succeed while its answer is lost. The batch
// reads its transaction id (pg_current_xact_id) before committing, and a
// commit that returns an error is looked up with pg_xact_status on another
// connection until the database says committed or aborted, so the answer
// is the truth and not a guess. If the database stays unreachable for
// PostgresOptions.ResolveTimeout, Append returns ErrCommitUnknown: the one
// case in which an error does not prove the entry absent. The table then
// fails its step, and the next append at that seq (a conflict if the entry
// did commit) makes it re-read its log (table.resync).
//
// # Migrations
//
// migrations_pg/ holds up/down pairs with the numbers and meaning of the
// SQLite ones (plus 011_leases and 017_quota_buckets, PostgreSQL only).
// They are applied at open in one transaction under a transaction-scoped advisory lock, so
// nodes that start at once apply them once (the others wait for the lock
// and find them applied) and a failed migration leaves the schema as it
// was (PostgreSQL's DDL is transactional). A database that records a
// migration this binary does not know is refused, as is a schema that has
// tables but no schema_migrations (someone else's data).
type Postgres struct {
	db  *sql.DB
	sql sqlStore
	opt PostgresOptions

	appends chan *pgAppend
	done    chan struct{}
	stopped chan struct{} // the writer has returned
	wg      sync.WaitGroup
	once    sync.Once

	commits, entries, resolved atomic.Int64

	// testCommit, when set (tests only), commits tx in place of
	// tx.Commit, so a test can break the connection around the commit.
	testCommit func(tx *sql.Tx) error

	// lastSeq is, for the tables the writer wrote lately, the last seq it
	// wrote (committed): insertBatch's known. The writer's alone; it is
	// forgotten when a table's entry is refused, and wholly past
	// maxLastSeq tables (finished tables are not removed one by one).
	lastSeq map[string]int64
}

// maxLastSeq bounds Postgres.lastSeq: past it the map starts again empty
// (a table's next batch then probes its log once).
const maxLastSeq = 1 << 16

// ErrCommitUnknown is returned by the PostgreSQL store's Append when a
// commit failed and the database could not be asked, within
// PostgresOptions.ResolveTimeout, whether it happened (see Postgres).
var ErrCommitUnknown = errors.New("commit outcome unknown: the database is unreachable")

// PostgresOptions tunes OpenPostgresWith. The zero value is the default.
type PostgresOptions struct {
	// MaxConns bounds the connections to the database (default 16): the
	// writer holds one, readers and other writes share the rest.
	MaxConns int
	// Queue bounds the appends waiting for the writer (default 4096); a
	// caller blocks (until its ctx ends) while it is full.
	Queue int
	// Batch bounds the entries of one group commit (default 512).
	Batch int
	// CommitTimeout bounds one group commit's transaction (default 10 s).
	CommitTimeout time.Duration
	// ResolveTimeout is how long a failed commit's outcome is looked up
	// before Append gives ErrCommitUnknown (default 30 s).
	ResolveTimeout time.Duration
	// IdleInTxTimeout is the sessions' idle_in_transaction_session_timeout
	// (default 2 s; negative: the server's own): a process stopped inside
	// a transaction (SIGSTOP, a pause) keeps its locks while the kernel
	// answers for it, and an append's transaction holds its table's lease
	// row, so no other node could claim the table until the process came
	// back. The room's transactions run their statements back to back;
	// one that waits this long between two is ended (its commit fails,
	// nothing is acknowledged). A URL that sets the parameter keeps its
	// value.
	IdleInTxTimeout time.Duration
}

func (o PostgresOptions) withDefaults() (PostgresOptions, error) {
	for _, c := range []struct {
		name     string
		v        *int
		def, max int
	}{{"MaxConns", &o.MaxConns, 16, 1000}, {"Queue", &o.Queue, 4096, 1 << 20}, {"Batch", &o.Batch, 512, 1 << 16}} {
		if *c.v == 0 {
			*c.v = c.def
		}
		if *c.v < 1 || *c.v > c.max {
			return o, fmt.Errorf("postgres: %s %d: want 1 to %d", c.name, *c.v, c.max)
		}
	}
	if o.MaxConns < 2 {
		return o, fmt.Errorf("postgres: MaxConns %d: the writer needs one connection and everything else another", o.MaxConns)
	}
	if o.CommitTimeout <= 0 {
		o.CommitTimeout = 10 * time.Second
	}
	if o.ResolveTimeout <= 0 {
		o.ResolveTimeout = 30 * time.Second
	}
	if o.IdleInTxTimeout == 0 {
		o.IdleInTxTimeout = 2 * time.Second
	}
	return o, nil
}

// pgAppend is a queued append; epoch 0 is an unfenced one (Append).
type pgAppend struct {
	appendReq
	epoch int64
}

//go:embed migrations_pg/*.sql
var pgMigrationFiles embed.FS

// Advisory lock keys (one 64-bit space per database): the migrations, and
// the read-then-write transactions of sqlStore.serial. Both start with
// ApplicationID ("CRM1") so they do not meet another program's keys.
const (
	pgMigrateLock = int64(ApplicationID)<<32 | 1
	pgSerialLock  = int64(ApplicationID)<<32 | 2
)

// OpenPostgres connects to the database at url (postgres://…), applies
// the embedded migrations and starts the writer, with default options.
func OpenPostgres(ctx context.Context, url string) (*Postgres, error) {
	return OpenPostgresWith(ctx, url, PostgresOptions{})
}

// OpenPostgresWith is OpenPostgres with options.
func OpenPostgresWith(ctx context.Context, url string, o PostgresOptions) (*Postgres, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		// pgx's message can quote the URL, password included.
		return nil, errors.New("postgres: the URL does not parse (want postgres://user:password@host:port/database?options)")
	}
	if _, set := cfg.RuntimeParams["idle_in_transaction_session_timeout"]; !set && o.IdleInTxTimeout > 0 {
		cfg.RuntimeParams["idle_in_transaction_session_timeout"] = strconv.FormatInt(max(o.IdleInTxTimeout.Milliseconds(), 1), 10)
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(o.MaxConns)
	db.SetMaxIdleConns(o.MaxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	where := fmt.Sprintf("postgres %s:%d/%s", cfg.Host, cfg.Port, cfg.Database)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	p := &Postgres{db: db, opt: o, lastSeq: map[string]int64{},
		sql:     sqlStore{w: db, r: db, serial: fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", pgSerialLock)},
		appends: make(chan *pgAppend, o.Queue), done: make(chan struct{}), stopped: make(chan struct{})}
	if err := p.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	p.wg.Add(1)
	go p.writer()
	return p, nil
}

// pgMigrations are the PostgreSQL schema's steps.
func pgMigrations() ([]migration, error) {
	return loadMigrationsFrom(pgMigrationFiles, "migrations_pg")
}

// migrationTx loads the migrations and opens the transaction that holds
// the migration lock until it ends.
func (p *Postgres) migrationTx(ctx context.Context) ([]migration, *sql.Tx, error) {
	ms, err := pgMigrations()
	if err != nil {
		return nil, nil, err
	}
	tx, err := p.db.BeginTx(ctx, nil)
	if err == nil {
		if _, err = tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, pgMigrateLock); err != nil {
			tx.Rollback()
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("migrations: %w", err)
	}
	return ms, tx, nil
}

// migrate applies the missing migrations in one transaction under the
// migration lock.
func (p *Postgres) migrate(ctx context.Context) error {
	ms, tx, err := p.migrationTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var ours bool
	var others int
	if err := tx.QueryRowContext(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL,
		(SELECT count(*) FROM pg_tables WHERE schemaname = current_schema())`).Scan(&ours, &others); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if !ours && others > 0 {
		return fmt.Errorf("%w: the schema has %d tables and none is Cardroom's schema_migrations: point the URL at an empty database (or set search_path to an empty schema)", ErrNotCardroom, others)
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY)`); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	todo, err := pending(ctx, tx, ms)
	if err != nil {
		return err
	}
	for _, m := range todo {
		// No arguments: pgx sends the script as one simple query, which
		// may hold several statements.
		if _, err := tx.ExecContext(ctx, m.up); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version) VALUES ($1)`, m.name); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return tx.Commit()
}

// MigrateDown undoes the applied migrations numbered above to, newest
// first, in one transaction (to = 0 leaves only schema_migrations). It
// exists so tests can check that every down step undoes its up step; a
// room never calls it. Nothing may be appending meanwhile.
func (p *Postgres) MigrateDown(ctx context.Context, to int) error {
	ms, tx, err := p.migrationTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	undo, err := toUndo(ctx, tx, ms, to)
	if err != nil {
		return err
	}
	for _, m := range undo {
		if _, err := tx.ExecContext(ctx, m.down); err != nil {
			return fmt.Errorf("migration %s (down): %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM schema_migrations WHERE version = $1`, m.recorded); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// CommitStats returns the event-log transactions committed, the entries
// they held, and the commits whose outcome had to be looked up.
func (p *Postgres) CommitStats() (commits, entries, resolved int64) {
	return p.commits.Load(), p.entries.Load(), p.resolved.Load()
}

// Append implements Store (unfenced: single-node use and tests; a cluster
// node appends with AppendFenced).
func (p *Postgres) Append(ctx context.Context, table string, seq int, e record.Entry) error {
	return p.enqueue(ctx, &pgAppend{appendReq: appendReq{table: table, seq: seq, e: e, reply: make(chan error, 1)}})
}

// enqueue hands r to the writer and waits by the appendReq rules.
func (p *Postgres) enqueue(ctx context.Context, r *pgAppend) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// One bad entry would fail its whole batch (the columns' types and
	// PostgreSQL's UTF-8 text refuse it inside the statement), so it is
	// refused here, alone.
	if r.seq < 0 || r.seq > math.MaxInt32 || r.e.Seat < game.Spectator || r.e.Seat > maxSeat {
		return fmt.Errorf("table %s: append: seq %d, seat %d out of range", r.table, r.seq, r.e.Seat)
	}
	if !utf8.ValidString(r.table+r.e.Text) || strings.IndexByte(r.table+r.e.Text, 0) >= 0 {
		return fmt.Errorf("table %s: append %d: text that is not UTF-8, or holds a NUL byte", r.table, r.seq)
	}
	select {
	case <-p.done:
		return ErrClosed
	default:
	}
	return handOff(ctx, p.appends, r, &r.appendReq, p.done, p.stopped)
}

// writer commits queued appends in batches until Close, then drains.
func (p *Postgres) writer() {
	defer p.wg.Done()
	defer close(p.stopped)
	batch := make([]*pgAppend, 0, p.opt.Batch)
	take := func(r *pgAppend) {
		if r.state.CompareAndSwap(reqQueued, reqTaken) {
			batch = append(batch, r)
		}
	}
	fill := func() {
		for len(batch) < cap(batch) {
			select {
			case r := <-p.appends:
				take(r)
			default:
				return
			}
		}
	}
	for {
		batch = batch[:0]
		select {
		case <-p.done:
			for {
				batch = batch[:0]
				fill()
				if len(batch) == 0 {
					return
				}
				p.commit(batch)
			}
		case r := <-p.appends:
			take(r)
			if len(p.appends) == 0 {
				// Let ready tables queue theirs first: one commit then serves
				// them too (see the SQLite writer).
				runtime.Gosched()
			}
			fill()
			if len(batch) > 0 {
				p.commit(batch)
			}
		}
	}
}

// commit commits a batch and answers every request in it exactly once.
func (p *Postgres) commit(batch []*pgAppend) {
	outcome, err := p.insert(batch)
	if err == nil {
		// Counted before any reply: a caller that has its answer sees
		// the commit in CommitStats.
		n := 0
		for _, o := range outcome {
			if o == pgWritten {
				n++
			}
		}
		if n > 0 {
			p.commits.Add(1)
			p.entries.Add(int64(n))
		}
		p.learn(batch, outcome)
		for i, r := range batch {
			switch outcome[i] {
			case pgWritten:
				r.reply <- nil
			case pgOutOfOrder:
				r.reply <- ErrConflict // as the SQLite store says it
			default:
				r.reply <- ErrFenced
			}
		}
		return
	}
	if isUnique(err) {
		// A seq taken by another writer (or twice in the batch): what
		// the writer knew of these tables may be behind.
		for _, r := range batch {
			delete(p.lastSeq, r.table)
		}
		if len(batch) > 1 {
			for _, r := range batch {
				p.commit([]*pgAppend{r})
			}
			return
		}
		err = ErrConflict
	}
	for _, r := range batch {
		r.reply <- err
	}
}

// learn keeps what a committed batch says of its tables' logs in
// lastSeq: the last seq written, or nothing for a table with a refused
// entry (its log is not what the writer thought).
func (p *Postgres) learn(batch []*pgAppend, outcome []uint8) {
	if len(p.lastSeq) > maxLastSeq {
		clear(p.lastSeq)
	}
	for i, r := range batch {
		if outcome[i] == pgWritten {
			if last, ok := p.lastSeq[r.table]; !ok || int64(r.seq) > last {
				p.lastSeq[r.table] = int64(r.seq)
			}
		}
	}
	for i, r := range batch {
		if outcome[i] != pgWritten {
			delete(p.lastSeq, r.table)
		}
	}
}

// What insertBatch did with an entry of the batch.
const (
	pgFenced     = iota // its lease is not live: not written
	pgOutOfOrder        // live, but not the next entry of its log (taken, or a gap): not written
	pgWritten
)

// insertBatch logs a batch in one statement. Unfenced rows (epoch 0) are
// live; a fenced row is live only if its (table, epoch) is a live lease,
// which FOR SHARE locks until the commit, so a Claim (an UPDATE of that
// row) waits for this transaction and a new owner that reads the log
// after its claim sees these entries. A live row goes in only if it
// extends its table's log without a gap: its seq is the log's last plus
// its rank among the batch's seqs of that table above the last (so a
// batch may carry several entries of one table; two live rows with the
// same seq both fit, and the unique key refuses the second, as it refuses
// a row that a concurrent transaction wrote first). So the log never has
// a hole, which Events would refuse for good, whatever a caller sends:
// the SQLite and memory stores refuse a gap too (ErrConflict). The
// statement returns every live row, whether it was written, and the
// transaction's id.
//
// Finding a log's last seq is an index probe per table. The writer skips
// it where it knows better ($7, known: the last seq it wrote itself, sent
// only when the batch's entries of that table follow it; -2 otherwise).
// That seq is a lower bound of the log's last (a log only grows), so an
// entry that follows it either extends the log or takes a seq another
// writer took since, which the unique key refuses: never a gap.
const insertBatch = `WITH b AS (
	SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::bigint[], $7::bigint[])
		AS b(table_id, seq, seat, chance, text, epoch, known)
), l AS (
	SELECT table_id, epoch FROM leases
	WHERE (table_id, epoch) IN (SELECT table_id, epoch FROM b WHERE epoch > 0) AND expires > clock_timestamp()
	ORDER BY table_id
	FOR SHARE
), live AS (
	SELECT * FROM b WHERE epoch = 0 OR (table_id, epoch) IN (SELECT table_id, epoch FROM l)
), last AS MATERIALIZED (
	SELECT t.table_id, CASE WHEN t.known >= -1 THEN t.known
		ELSE COALESCE((SELECT e.seq FROM events e WHERE e.table_id = t.table_id ORDER BY e.seq DESC LIMIT 1), -1) END AS last
	FROM (SELECT table_id, max(known) AS known FROM live GROUP BY table_id) t
), fit AS (
	SELECT live.* FROM (
		SELECT live.*, live.seq - last.last = dense_rank() OVER (PARTITION BY live.table_id ORDER BY live.seq) AS fits
		FROM live JOIN last USING (table_id) WHERE live.seq > last.last
	) live WHERE fits
), ins AS (
	INSERT INTO events(table_id, seq, seat, chance, text, epoch)
	SELECT table_id, seq, seat, chance, text, epoch FROM fit
	RETURNING table_id, seq
)
SELECT live.table_id, live.seq, live.epoch, EXISTS (SELECT 1 FROM ins WHERE ins.table_id = live.table_id AND ins.seq = live.seq),
	pg_current_xact_id()::text
FROM live`

// tableSeq names one entry of one table's log, as one owner sent it.
type tableSeq struct {
	table      string
	seq, epoch int64
}

// insert writes a batch in one transaction and reports what it did with
// each entry (pgWritten, pgFenced, pgOutOfOrder). An error means nothing
// was committed, except ErrCommitUnknown.
func (p *Postgres) insert(batch []*pgAppend) ([]uint8, error) {
	ctx, cancel := context.WithTimeout(context.Background(), p.opt.CommitTimeout)
	defer cancel()
	n := len(batch)
	tables, texts := make([]string, n), make([]string, n)
	seqs, seats, chances, epochs := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	at := make(map[tableSeq]int, n)
	first := make(map[string]int64, n) // each table's lowest seq in the batch
	for i, r := range batch {
		tables[i], seqs[i], seats[i], chances[i], texts[i], epochs[i] = r.table, int64(r.seq), int64(r.e.Seat), int64(b2i(r.e.Chance)), r.e.Text, r.epoch
		at[tableSeq{r.table, int64(r.seq), r.epoch}] = i
		if f, ok := first[r.table]; !ok || int64(r.seq) < f {
			first[r.table] = int64(r.seq)
		}
	}
	known := make([]int64, n)
	for i, r := range batch {
		known[i] = -2 // unknown: the statement looks it up
		if last, ok := p.lastSeq[r.table]; ok && first[r.table] == last+1 {
			known[i] = last
		}
	}
	tx, err := p.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	outcome := make([]uint8, n) // pgFenced unless the statement returns the row
	xid, some, err := func() (string, bool, error) {
		rows, err := tx.QueryContext(ctx, insertBatch, tables, seqs, seats, chances, texts, epochs, known)
		if err != nil {
			return "", false, err
		}
		defer rows.Close()
		var xid string
		some := false
		for rows.Next() {
			var t string
			var seq, epoch int64
			var wrote bool
			if err := rows.Scan(&t, &seq, &epoch, &wrote, &xid); err != nil {
				return "", false, err
			}
			if i, ok := at[tableSeq{t, seq, epoch}]; ok {
				outcome[i] = pgOutOfOrder
				if wrote {
					outcome[i], some = pgWritten, true
				}
			}
		}
		return xid, some, rows.Err()
	}()
	if err != nil || !some {
		// Nothing was sent for commit: nothing is committed.
		tx.Rollback()
		return outcome, err
	}
	if p.testCommit != nil {
		err = p.testCommit(tx)
	} else {
		err = tx.Commit()
	}
	if err == nil {
		return outcome, nil
	}
	// The commit failed or its answer was lost: ask the database.
	p.resolved.Add(1)
	committed, rerr := p.resolve(xid)
	switch {
	case rerr != nil:
		return nil, fmt.Errorf("%w: commit: %v; status: %v", ErrCommitUnknown, err, rerr)
	case committed:
		return outcome, nil
	default:
		return nil, err
	}
}

// resolve asks the database whether transaction xid committed, until it
// knows (a transaction whose connection broke mid-commit may still be in
// progress for a moment) or ResolveTimeout passes.
func (p *Postgres) resolve(xid string) (bool, error) {
	deadline := time.Now().Add(p.opt.ResolveTimeout)
	wait := 5 * time.Millisecond
	for {
		ctx, cancel := context.WithTimeout(context.Background(), min(5*time.Second, p.opt.ResolveTimeout))
		var status sql.NullString
		err := p.db.QueryRowContext(ctx, `SELECT pg_xact_status($1::xid8)`, xid).Scan(&status)
		cancel()
		if err == nil {
			switch status.String {
			case "committed":
				return true, nil
			case "aborted":
				return false, nil
			case "in progress":
			default:
				// NULL: too old to know, which a transaction of a moment ago
				// never is.
				return false, fmt.Errorf("transaction %s: status unknown to the database", xid)
			}
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = errors.New("still in progress")
			}
			return false, fmt.Errorf("transaction %s: %w", xid, err)
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Second)
	}
}

// Events implements Store.
func (p *Postgres) Events(ctx context.Context, table string) ([]record.Entry, error) {
	rows, err := p.db.QueryContext(ctx, `SELECT seq, seat, chance, text FROM events WHERE table_id = $1 ORDER BY seq`, table)
	if err != nil {
		return nil, fmt.Errorf("table %s: event log: %w", table, err)
	}
	return readEvents(table, rows)
}

// readEvents reads (seq, seat, chance, text) rows into a log, refusing a
// gap or a damaged entry rather than returning a shorter log.
func readEvents(table string, rows *sql.Rows) ([]record.Entry, error) {
	defer rows.Close()
	var out []record.Entry
	for rows.Next() {
		var seq, seat, chance int
		var text string
		if err := rows.Scan(&seq, &seat, &chance, &text); err != nil {
			return nil, fmt.Errorf("table %s: event %d unreadable: %w", table, len(out), err)
		}
		if seq != len(out) {
			return nil, fmt.Errorf("table %s: event log has a gap at %d (next logged is %d)", table, len(out), seq)
		}
		if seat < int(game.Spectator) || seat > maxSeat || (chance != 0 && chance != 1) {
			return nil, fmt.Errorf("table %s: event %d is damaged (seat %d, chance %d)", table, seq, seat, chance)
		}
		out = append(out, record.Entry{Chance: chance != 0, Seat: game.Seat(seat), Text: text})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("table %s: event log unreadable after %d events: %w", table, len(out), err)
	}
	return out, nil
}

// Close stops the writer after committing what is queued, and closes the
// connections.
func (p *Postgres) Close() error {
	p.once.Do(func() { close(p.done) })
	p.wg.Wait()
	return p.db.Close()
}

// The rest of Store and the optional interfaces are sqlStore's.

func (p *Postgres) CreateSession(ctx context.Context, s Session) error {
	return p.sql.createSession(ctx, s)
}
func (p *Postgres) Session(ctx context.Context, h string) (Session, error) {
	return p.sql.session(ctx, h)
}
func (p *Postgres) DeleteSession(ctx context.Context, h string) error {
	return p.sql.deleteSession(ctx, h)
}
func (p *Postgres) PurgeSessions(ctx context.Context, now time.Time) (int, error) {
	return p.sql.purgeSessions(ctx, now)
}
func (p *Postgres) CountSessions(ctx context.Context) (int, error) { return p.sql.countSessions(ctx) }
func (p *Postgres) CreateTable(ctx context.Context, t Table) error { return p.sql.createTable(ctx, t) }
func (p *Postgres) UpdateTable(ctx context.Context, t Table) error { return p.sql.updateTable(ctx, t) }
func (p *Postgres) Table(ctx context.Context, id string) (Table, error) {
	return p.sql.table(ctx, id)
}
func (p *Postgres) Unfinished(ctx context.Context) ([]Table, error) { return p.sql.unfinished(ctx) }
func (p *Postgres) UnfinishedIDs(ctx context.Context) ([]string, error) {
	return p.sql.unfinishedIDs(ctx)
}
func (p *Postgres) History(ctx context.Context, player string, limit int) ([]Table, error) {
	return p.sql.history(ctx, player, limit)
}

func (p *Postgres) CreateAccount(ctx context.Context, a Account) error {
	return p.sql.createAccount(ctx, a)
}
func (p *Postgres) AccountByPlayer(ctx context.Context, player string) (Account, error) {
	return p.sql.accountBy(ctx, "player", player)
}
func (p *Postgres) AccountBySkeleton(ctx context.Context, skeleton string) (Account, error) {
	return p.sql.accountBy(ctx, "skeleton", skeleton)
}
func (p *Postgres) ChangePassword(ctx context.Context, player, hash string, at time.Time, keep string) ([]string, error) {
	return p.sql.changePassword(ctx, player, hash, at, keep)
}
func (p *Postgres) Rehash(ctx context.Context, player, old, hash string) error {
	return p.sql.rehash(ctx, player, old, hash)
}
func (p *Postgres) SessionsOf(ctx context.Context, player string) ([]Session, error) {
	return sessionsOf(ctx, p.db, player)
}
func (p *Postgres) DeleteSessionsOf(ctx context.Context, player, keep string) ([]string, error) {
	return p.sql.deleteSessionsOf(ctx, player, keep)
}
func (p *Postgres) TrimSessions(ctx context.Context, player string, limit int, keep string) ([]string, error) {
	return p.sql.trimSessions(ctx, player, limit, keep)
}

func (p *Postgres) ApplyRatedGame(ctx context.Context, pr rating.Params, g RatedGame) ([]RatingChange, error) {
	return p.sql.applyRatedGame(ctx, pr, g)
}
func (p *Postgres) IsRated(ctx context.Context, table string) (bool, error) {
	return p.sql.isRated(ctx, table)
}
func (p *Postgres) Unrated(ctx context.Context, limit int) ([]string, error) {
	return p.sql.unrated(ctx, limit)
}
func (p *Postgres) Leaderboard(ctx context.Context, game string, offset, limit int) ([]PlayerRating, int, error) {
	return p.sql.leaderboard(ctx, game, offset, limit)
}
func (p *Postgres) RatingsOf(ctx context.Context, game string, players []string) ([]PlayerRating, error) {
	return p.sql.ratingsOf(ctx, game, players)
}
func (p *Postgres) PlayerRatings(ctx context.Context, player string) ([]PlayerRating, error) {
	return p.sql.playerRatings(ctx, player)
}
func (p *Postgres) RatingHistory(ctx context.Context, player, game string, limit int) ([]RatingChange, error) {
	return p.sql.ratingHistory(ctx, player, game, limit)
}

func (p *Postgres) MarkBot(ctx context.Context, player string, at time.Time) (time.Time, error) {
	return p.sql.markBot(ctx, player, at)
}
func (p *Postgres) Bots(ctx context.Context, limit int) ([]Bot, error) { return p.sql.bots(ctx, limit) }
func (p *Postgres) CreateBotToken(ctx context.Context, t BotToken, limit int) error {
	return p.sql.createBotToken(ctx, t, limit)
}
func (p *Postgres) BotToken(ctx context.Context, hash string) (BotToken, error) {
	return p.sql.botToken(ctx, hash)
}
func (p *Postgres) BotTokensOf(ctx context.Context, player string) ([]BotToken, error) {
	return p.sql.botTokensOf(ctx, player)
}
func (p *Postgres) DeleteBotToken(ctx context.Context, player, hash string) error {
	return p.sql.deleteBotToken(ctx, player, hash)
}

func (p *Postgres) AppendChat(ctx context.Context, l ChatLine, keep int) error {
	return p.sql.appendChat(ctx, l, keep)
}
func (p *Postgres) ChatLines(ctx context.Context, table string, limit int) ([]ChatLine, error) {
	return p.sql.chatLines(ctx, table, limit)
}
func (p *Postgres) SpectatorChatOff(ctx context.Context, table string) (bool, error) {
	return p.sql.spectatorChatOff(ctx, table)
}
func (p *Postgres) SetSpectatorChatOff(ctx context.Context, table string, off bool) error {
	return p.sql.setSpectatorChatOff(ctx, table, off)
}
func (p *Postgres) AddChatReport(ctx context.Context, r ChatReport) error {
	return p.sql.addChatReport(ctx, r)
}
func (p *Postgres) ChatReports(ctx context.Context, limit int) ([]ChatReport, error) {
	return p.sql.chatReports(ctx, limit)
}

func (p *Postgres) SaveAnalysis(ctx context.Context, a Analysis) error {
	return p.sql.saveAnalysis(ctx, a)
}
func (p *Postgres) Analysis(ctx context.Context, table string, seat int) (Analysis, error) {
	return p.sql.analysis(ctx, table, seat)
}

func (p *Postgres) PlayerTally(ctx context.Context, player, viewer string) ([]GameTally, error) {
	return p.sql.playerTally(ctx, "strpos", player, viewer)
}
func (p *Postgres) RecentGames(ctx context.Context, player, viewer string, offset, limit int) ([]Table, error) {
	return p.sql.recentGames(ctx, player, viewer, offset, limit)
}

var (
	_ Store       = (*Postgres)(nil)
	_ Accounts    = (*Postgres)(nil)
	_ Ratings     = (*Postgres)(nil)
	_ BotAccounts = (*Postgres)(nil)
	_ Chat        = (*Postgres)(nil)
	_ Profiles    = (*Postgres)(nil)
	_ Analyses    = (*Postgres)(nil)
	_ Leases      = (*Postgres)(nil)
)
