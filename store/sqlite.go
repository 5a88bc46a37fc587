package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/game"
	"cardroom/record"

	"modernc.org/sqlite" // the "sqlite" driver, pure Go
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite is the embedded Store: one database file in WAL mode, one writer
// connection, and a pool of readers. Appends from all tables go through one
// goroutine that commits them in batches (group commit), so a thousand
// tables moving at once cost a few transactions, not a thousand. A third
// connection checkpoints the WAL in the background (see SQLiteOptions).
type SQLite struct {
	path     string
	opt      SQLiteOptions
	readOnly bool
	w, r, c  *sql.DB     // writer, readers, checkpointer (w and c are nil when read-only)
	ew       eventWriter // the writer goroutine's statements on the writer connection

	appends chan *appendReq
	kick    chan struct{} // the checkpointer tells the writer it may restart the WAL (wal.go)
	hurry   chan struct{} // the writer asks the checkpointer to catch up with a WAL over its limit
	done    chan struct{}
	stopped chan struct{} // the writer has returned
	wg      sync.WaitGroup
	once    sync.Once

	tail             *tail        // the event log's tail (tail.go)
	roTail           roTail       // a read-only store's decoded tail (tail.go)
	hold             commitHold   // the writer's commit hold (hold.go)
	timer            *time.Timer  // the writer's timer for the hold
	commits, entries atomic.Int64 // CommitStats
	txs              atomic.Int64 // event transactions attempted (tests count retries)
	held             atomic.Int64 // batches held open (tests)
	wal              walStats
}

// The life of a queued append. The writer may commit a request only after
// moving it from queued to taken, and the caller may give up only after
// moving it from queued to abandoned; whoever loses the race abides by the
// winner. So an Append that returns an error never sees its entry committed
// later, and one that returns nil is committed.
const (
	reqQueued int32 = iota
	reqTaken
	reqAbandoned
)

type appendReq struct {
	table string
	seq   int
	e     record.Entry
	state atomic.Int32
	reply chan error // buffered: the writer never blocks on a caller
}

// SQLiteOptions tunes OpenSQLiteWith. The zero value is the default room.
type SQLiteOptions struct {
	// Sync is SQLite's synchronous setting: "normal" (the default: WAL
	// commits are not fsynced, checkpoints are; a process crash loses
	// nothing committed, a power loss may lose the last commits), "off" (no
	// fsync at all: a process crash still loses nothing, an OS crash may
	// corrupt the database) or "full" (every commit fsynced).
	Sync string
	// BusyTimeout is how long a statement waits for a lock before failing
	// with SQLITE_BUSY (default 5 s). Only another process (or the
	// checkpointer's truncation, below) holds locks the writer waits for.
	BusyTimeout time.Duration
	// WALLimit is the size of the -wal file above which the checkpointer
	// truncates it (blocking the writer for the time of a full checkpoint)
	// instead of checkpointing passively; it is also journal_size_limit, so
	// a WAL that was reset shrinks back to it (default 64 MiB).
	WALLimit int64
	// CheckpointEvery is the period of the background passive checkpoint
	// (default: the package variable CheckpointEvery, 1 s).
	CheckpointEvery time.Duration
	// CommitWindow is how long the writer holds a batch open, after
	// taking its first entry, for more entries to share its transaction.
	// 0, the default, adapts: a hold of up to AdaptiveHold (2 ms) while
	// entries of different tables arrive faster than one per hold, none
	// otherwise (hold.go). Positive is a fixed hold, at most
	// MaxCommitWindow; negative never holds (whatever is queued is
	// committed at once). Every move held waits up to the hold: keep it
	// small (docs/server.md has the figures).
	CommitWindow time.Duration
	// PageSize is the page size of a database this store creates: a power
	// of two from 512 to 65,536 (default DefaultPageSize). A database that
	// exists keeps the page size it was made with (only a VACUUM changes
	// it). The event log is clustered by table, so every entry of a commit
	// writes a page of its own to the WAL: at 4,000 moves a second, 4 KiB
	// pages wrote 19–20 MB a second and 1 KiB pages 8, and the 4,000-table
	// p99 fell from 33–43 ms to 26–34 ms (docs/server.md).
	PageSize int
	// TailLimit is how many entries the event log's tail holds before the
	// writer folds the oldest into events (tail.go; default
	// DefaultTailLimit, at least minTailLimit). They are in memory too:
	// about 100 bytes each.
	TailLimit int
}

// MaxCommitWindow bounds SQLiteOptions.CommitWindow: every acknowledged
// move waits for it.
const MaxCommitWindow = 50 * time.Millisecond

// CheckpointEvery is the default period of the background WAL checkpoint,
// used when SQLiteOptions.CheckpointEvery is zero (cmd/cardroom sets it
// from -checkpoint).
var CheckpointEvery = time.Second

// Defaults of SQLiteOptions.
const (
	DefaultBusyTimeout = 5 * time.Second
	DefaultWALLimit    = 64 << 20
	DefaultPageSize    = 1024
)

func (o SQLiteOptions) withDefaults() (SQLiteOptions, error) {
	if o.Sync == "" {
		o.Sync = "normal"
	}
	switch o.Sync {
	case "normal", "off", "full":
	default:
		return o, fmt.Errorf("synchronous: want normal, off or full, not %q", o.Sync)
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = DefaultBusyTimeout
	}
	if o.WALLimit <= 0 {
		o.WALLimit = DefaultWALLimit
	}
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = CheckpointEvery
	}
	if o.CommitWindow > MaxCommitWindow {
		return o, fmt.Errorf("commit window: want at most %v, not %v", MaxCommitWindow, o.CommitWindow)
	}
	if o.PageSize == 0 {
		o.PageSize = DefaultPageSize
	}
	if o.PageSize < 512 || o.PageSize > 65536 || o.PageSize&(o.PageSize-1) != 0 {
		return o, fmt.Errorf("page size: want a power of two from 512 to 65536, not %d", o.PageSize)
	}
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = time.Second
	}
	if o.TailLimit == 0 {
		o.TailLimit = DefaultTailLimit
	}
	if o.TailLimit < minTailLimit || o.TailLimit > maxTailLimit {
		return o, fmt.Errorf("tail limit: want %d to %d entries, not %d", minTailLimit, maxTailLimit, o.TailLimit)
	}
	return o, nil
}

// OpenSQLite opens (creating if needed) the database at path and applies
// the embedded migrations, with the default options.
func OpenSQLite(path string) (*SQLite, error) { return OpenSQLiteWith(path, SQLiteOptions{}) }

// OpenSQLiteSync is OpenSQLite with SQLite's synchronous setting (see
// SQLiteOptions.Sync).
func OpenSQLiteSync(path, sync string) (*SQLite, error) {
	return OpenSQLiteWith(path, SQLiteOptions{Sync: sync})
}

// dsn is the driver's URI for path with the pragmas every connection needs.
func dsn(path string, busy time.Duration, extra url.Values) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	for k, vs := range extra {
		for _, v := range vs {
			q.Add(k, v)
		}
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// OpenSQLiteWith opens (creating if needed) the database at path and
// applies the embedded migrations. It refuses a file that is not a
// Cardroom database (see checkFile and checkIdentity) rather than adding
// tables to someone else's data or starting an empty room on top of it.
func OpenSQLiteWith(path string, o SQLiteOptions) (*SQLite, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	exists, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	if exists {
		if err := checkIdentity(path, o.BusyTimeout); err != nil {
			return nil, err
		}
	} else if err := create(path, o); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	common := url.Values{}
	common.Add("_pragma", "journal_mode(WAL)")
	common.Add("_pragma", "synchronous("+strings.ToUpper(o.Sync)+")")
	common.Add("_pragma", "foreign_keys(1)")
	common.Add("_pragma", fmt.Sprintf("journal_size_limit(%d)", o.WALLimit))
	// The writer never checkpoints (a checkpoint fsyncs, and the writer's
	// commits would wait for it); the checkpointer does, on its own
	// connection.
	wq := url.Values{"_txlock": {"immediate"}, "_pragma": append([]string{"wal_autocheckpoint(0)"}, common["_pragma"]...)}
	w, err := sql.Open("sqlite", dsn(path, o.BusyTimeout, wq))
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", dsn(path, o.BusyTimeout, common))
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(4)
	// A TRUNCATE checkpoint holds the write lock while it waits for readers,
	// and the writer goroutine runs it: it must give up soon (and try again
	// a period later) rather than stall every append.
	c, err := sql.Open("sqlite", dsn(path, checkpointBusy(o.BusyTimeout), common))
	if err != nil {
		w.Close()
		r.Close()
		return nil, err
	}
	c.SetMaxOpenConns(1)
	s := &SQLite{path: path, opt: o, w: w, r: r, c: c,
		appends: make(chan *appendReq, 4096), kick: make(chan struct{}, 1), hurry: make(chan struct{}, 1),
		done: make(chan struct{}), stopped: make(chan struct{}), hold: newCommitHold(o.CommitWindow), tail: newTail(o.TailLimit)}
	fail := func(err error) (*SQLite, error) {
		w.Close()
		r.Close()
		c.Close()
		return nil, err
	}
	if err := s.migrate(context.Background()); err != nil {
		return fail(fmt.Errorf("%s: %w", path, err))
	}
	if err := s.openTail(context.Background()); err != nil {
		return fail(fmt.Errorf("%s: %w", path, err))
	}
	s.wal.restartedAt.Store(-1)
	s.wg.Add(2)
	go s.writer()
	go s.checkpointer()
	return s, nil
}

// create makes a new database file with o's page size, in WAL mode. The
// page size must be set before anything is written: the pools' connections
// switch to WAL mode as they open (a DSN pragma), which writes the file's
// header with the default page size.
func create(path string, o SQLiteOptions) error {
	db, err := sql.Open("sqlite", dsn(path, o.BusyTimeout, url.Values{}))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(fmt.Sprintf("PRAGMA page_size = %d", o.PageSize)); err != nil {
		return fmt.Errorf("page size: %w", err)
	}
	if _, err := db.Exec("PRAGMA journal_mode = WAL"); err != nil {
		return fmt.Errorf("WAL mode: %w", err)
	}
	return nil
}

func checkpointBusy(busy time.Duration) time.Duration {
	d := busy / 4
	if d > 200*time.Millisecond {
		d = 200 * time.Millisecond
	}
	if d < 10*time.Millisecond {
		d = 10 * time.Millisecond
	}
	return d
}

// OpenSQLiteReadOnly opens an existing database without writing to it
// (SQLite's mode=ro): no migrations, no writer, no checkpoints. Reads work
// as on OpenSQLite's store, writes fail with ErrReadOnly. It is for
// inspecting a room, even a running one (`cardroom doctor`); the identity
// checks of OpenSQLiteWith apply.
func OpenSQLiteReadOnly(path string) (*SQLite, error) {
	exists, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("%s: no database there", path)
	}
	if err := checkIdentity(path, DefaultBusyTimeout); err != nil {
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn(path, DefaultBusyTimeout, url.Values{"mode": {"ro"}}))
	if err != nil {
		return nil, err
	}
	r.SetMaxOpenConns(4)
	if err := r.Ping(); err != nil {
		r.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &SQLite{path: path, readOnly: true, r: r, done: make(chan struct{}), stopped: make(chan struct{})}
	s.opt, _ = SQLiteOptions{}.withDefaults()
	close(s.stopped)
	return s, nil
}

func (s *SQLite) writable() error {
	if s.readOnly {
		return ErrReadOnly
	}
	return nil
}

// IntegrityCheck runs SQLite's PRAGMA integrity_check, decodes the log's
// tail, and returns the findings: nil when the database is sound. It
// reads the whole file, so it takes a while on a big room.
func (s *SQLite) IntegrityCheck(ctx context.Context) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			return out, err
		}
		if l != "ok" {
			out = append(out, l)
		}
	}
	if err := rows.Err(); err != nil {
		// On a damaged file the check may stop part way; what it found so
		// far is the useful part, and the stop is one more finding.
		if len(out) == 0 {
			return nil, err
		}
		out = append(out, "integrity_check stopped: "+err.Error())
	}
	// The log's tail is the store's own encoding, which SQLite cannot
	// check: a row that does not decode stops the next open (tail.go).
	if err := readTail(ctx, s.r, func(tailEntry) {}); err != nil {
		out = append(out, err.Error()+" (the room will not open until it is mended)")
	}
	return out, nil
}

// writer commits queued appends in batches.
func (s *SQLite) writer() {
	defer s.wg.Done()
	defer close(s.stopped)
	batch := make([]*appendReq, 0, 512)
	// take claims a request for this batch, unless its caller gave up.
	take := func(r *appendReq) {
		if r.state.CompareAndSwap(reqQueued, reqTaken) {
			batch = append(batch, r)
		}
	}
	for {
		select {
		case <-s.done:
			// Drain what is queued, then stop. (The batch still holds the
			// last one committed: start afresh.)
			batch = batch[:0]
			for {
				select {
				case r := <-s.appends:
					take(r)
				default:
					if len(batch) > 0 {
						s.commit(batch)
					}
					// A closed database's events is the whole log.
					s.foldAll()
					return
				}
			}
		case r := <-s.appends:
			batch = batch[:0]
			take(r)
			start := time.Now()
			d := s.hold.hold(start, len(s.appends))
			if d > 0 {
				s.held.Add(1)
				s.sleep(d)
			} else if len(s.appends) == 0 {
				// Let the goroutines that are ready run first: under load some
				// are tables about to append, and one commit then serves them
				// too. Idle, this returns at once.
				runtime.Gosched()
			}
		more:
			for len(batch) < cap(batch) {
				select {
				case r := <-s.appends:
					take(r)
				default:
					break more
				}
			}
			s.hold.taken(start, batch)
			if len(batch) > 0 {
				s.commit(batch)
				s.foldOver()
				s.watchWAL()
			}
		case <-s.kick:
			s.watchWAL()
		}
	}
}

// sleep holds the batch open for d (see commitHold): appends queue
// meanwhile without waking the writer. Closing the store ends it early.
func (s *SQLite) sleep(d time.Duration) {
	if s.timer == nil {
		s.timer = time.NewTimer(d)
	} else {
		s.timer.Reset(d)
	}
	select {
	case <-s.timer.C:
	case <-s.done:
		s.timer.Stop()
	}
}

// CommitStats returns the event-log transactions committed and the
// entries they held (the group commit's batching).
func (s *SQLite) CommitStats() (commits, entries int64) {
	return s.commits.Load(), s.entries.Load()
}

// commit commits a batch to the log's tail (tail.go) and answers every
// request in it exactly once. An entry whose seq is not next in its
// table's log fails alone with ErrConflict, before the transaction.
// Anything else (a locked or full disk, an I/O error) would fail each
// entry alone too, and retrying them one by one costs busy_timeout per
// entry: the whole batch fails at once. Nothing of it is committed then:
// a failed transaction is rolled back (the driver rolls back a failed
// COMMIT too).
func (s *SQLite) commit(batch []*appendReq) {
	var ok, conflicts []*appendReq
	err := s.tail.full()
	for err != nil && s.fold(s.tail.budget) == nil {
		err = s.tail.full() // folds work again
	}
	if err == nil {
		err = s.raw(func() error {
			var err error
			if ok, conflicts, err = s.tail.admit(batch, s.ew.nextSeq); err != nil || len(ok) == 0 {
				return err
			}
			s.txs.Add(1)
			return s.ew.inTx(func() error { return s.ew.insertTail(ok, s.tail.nextID) })
		})
	}
	if err != nil {
		s.tail.committed(ok, false)
		for _, r := range batch {
			r.reply <- err
		}
		return
	}
	s.tail.committed(ok, true)
	if len(ok) > 0 {
		s.wal.writes.Add(1)
		s.commits.Add(1)
		s.entries.Add(int64(len(ok)))
	}
	for _, r := range ok {
		r.reply <- nil
	}
	for _, r := range conflicts {
		r.reply <- ErrConflict
	}
}

// raw runs f with the writer's statements (s.ew) bound to the writer's
// driver connection.
func (s *SQLite) raw(f func() error) error {
	conn, err := s.w.Conn(context.Background())
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		s.ew.bind(dc)
		return f()
	})
}

// isConflict reports a primary-key or unique violation: the key is taken.
// It reads the driver's extended result code; no message matching.
func isConflict(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY, sqlite3.SQLITE_CONSTRAINT_UNIQUE:
		return true
	}
	return false
}

const insertEvent = `INSERT INTO events(table_id, seq, seat, chance, text) VALUES (?, ?, ?, ?, ?)`

// Append implements Store: nil means committed, an error means not
// committed (see the appendReq states).
func (s *SQLite) Append(ctx context.Context, table string, seq int, e record.Entry) error {
	if err := s.writable(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r := &appendReq{table: table, seq: seq, e: e, reply: make(chan error, 1)}
	return handOff(ctx, s.appends, r, r, s.done, s.stopped)
}

// handOff queues item (whose request is r) for a store's writer and waits
// for its answer by the appendReq rules: a caller whose ctx ends while the
// entry is still queued withdraws it; one whose entry the writer took
// waits for the real outcome (within one transaction). done is the
// store's closing, stopped its writer's end.
func handOff[T any](ctx context.Context, q chan<- T, item T, r *appendReq, done, stopped <-chan struct{}) error {
	select {
	case q <- item:
	case <-ctx.Done():
		return ctx.Err() // never queued
	case <-done:
		return ErrClosed
	}
	select {
	case err := <-r.reply:
		return err
	case <-ctx.Done():
	case <-stopped:
		// Queued after the writer's last drain: nobody will take it.
	}
	if r.state.CompareAndSwap(reqQueued, reqAbandoned) {
		if err := ctx.Err(); err != nil {
			return err
		}
		return ErrClosed
	}
	// The writer took it first: its answer is the truth.
	return <-r.reply
}

// maxSeat bounds a logged seat: no game has more seats than this, so a
// larger value is damage, not a move.
const maxSeat = 63

// Events implements Store.
//
// A table's entries that wait in the log's tail are read from memory
// first, then events (see tail.go for why the union is a prefix of the
// log). A read-only store has no memory of the tail: it reads the tail's
// rows, then events.
func (s *SQLite) Events(ctx context.Context, table string) ([]record.Entry, error) {
	var first int
	var run []record.Entry
	if s.readOnly {
		var err error
		if first, run, err = s.readTailOf(ctx, table); err != nil {
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
	} else {
		first, run = s.tail.run(table)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT seq, seat, chance, text FROM events WHERE table_id = ? ORDER BY seq`, table)
	if err != nil {
		return nil, fmt.Errorf("table %s: event log: %w", table, err)
	}
	ev, err := readEvents(table, rows) // postgres.go: the same rows, the same checks
	if err != nil || len(run) == 0 {
		return ev, err
	}
	if len(ev) < first {
		return nil, fmt.Errorf("table %s: event log has a gap at %d (the tail's entries start at %d)", table, len(ev), first)
	}
	if n := len(ev) - first; n < len(run) {
		ev = append(ev, run[n:]...)
	}
	return ev, nil
}

// The sessions and tables are the SQL the PostgreSQL store shares
// (sqlshared.go); the SQLite store adds its read-only guard.

// CreateSession implements Store.
func (s *SQLite) CreateSession(ctx context.Context, se Session) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().createSession(ctx, se)
}

// Session implements Store.
func (s *SQLite) Session(ctx context.Context, h string) (Session, error) {
	return s.sq().session(ctx, h)
}

// DeleteSession implements Store.
func (s *SQLite) DeleteSession(ctx context.Context, h string) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().deleteSession(ctx, h)
}

// PurgeSessions implements Store (by the sessions_expires index).
func (s *SQLite) PurgeSessions(ctx context.Context, now time.Time) (int, error) {
	if err := s.writable(); err != nil {
		return 0, err
	}
	return s.sq().purgeSessions(ctx, now)
}

// CountSessions implements Store.
func (s *SQLite) CountSessions(ctx context.Context) (int, error) { return s.sq().countSessions(ctx) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CreateTable implements Store.
func (s *SQLite) CreateTable(ctx context.Context, t Table) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().createTable(ctx, t)
}

func orStar(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// UpdateTable implements Store.
func (s *SQLite) UpdateTable(ctx context.Context, t Table) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().updateTable(ctx, t)
}

const tableCols = `id, game, options, private, invite, clock_ms, bot_level, owner, seed, created, status, result, finished, winners, rated, when_empty, stand_in`

// seatsText writes seat numbers as the winners column holds them: "0 2".
func seatsText(seats []game.Seat) string {
	var b strings.Builder
	for i, s := range seats {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(int(s)))
	}
	return b.String()
}

// parseSeats reads the winners column; a damaged value is an error, not a
// silently shorter list.
func parseSeats(s string) ([]game.Seat, error) {
	var out []game.Seat
	for _, f := range strings.Fields(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > 63 {
			return nil, fmt.Errorf("winners %q: not a list of seats", s)
		}
		out = append(out, game.Seat(n))
	}
	return out, nil
}

func scanTable(sc interface{ Scan(...any) error }) (Table, error) {
	var t Table
	var priv, rated int
	var seed, created, finished int64
	var winners, standIn string
	err := sc.Scan(&t.ID, &t.Game, &t.Options, &priv, &t.Invite, &t.ClockMS, &t.BotLevel, &t.Owner, &seed, &created, &t.Status, &t.Result, &finished, &winners, &rated, &t.WhenEmpty, &standIn)
	if err == nil {
		t.Winners, err = parseSeats(winners)
	}
	if err == nil {
		t.StandIn, err = parseSeats(standIn)
	}
	t.Private, t.Rated = priv != 0, rated != 0
	t.Seed = uint64(seed)
	t.Created = time.UnixMilli(created).UTC()
	if finished != 0 {
		t.Finished = time.UnixMilli(finished).UTC()
	}
	return t, err
}

// Table implements Store.
func (s *SQLite) Table(ctx context.Context, id string) (Table, error) { return s.sq().table(ctx, id) }

// Unfinished implements Store.
func (s *SQLite) Unfinished(ctx context.Context) ([]Table, error) { return s.sq().unfinished(ctx) }

// UnfinishedIDs implements Store. It reads the tables_status index alone
// (id and status), so a damaged row or seat list elsewhere does not fail it.
func (s *SQLite) UnfinishedIDs(ctx context.Context) ([]string, error) {
	return s.sq().unfinishedIDs(ctx)
}

// History implements Store.
func (s *SQLite) History(ctx context.Context, player string, limit int) ([]Table, error) {
	return s.sq().history(ctx, player, limit)
}

// Close stops the writer after committing what is queued, truncates the
// WAL, and closes the database.
func (s *SQLite) Close() error {
	if s.readOnly {
		return s.r.Close()
	}
	s.once.Do(func() { close(s.done) })
	s.wg.Wait()
	if conn, err := s.w.Conn(context.Background()); err == nil {
		conn.Raw(func(dc any) error { s.ew.close(dc); return nil })
		conn.Close()
	}
	err := s.w.Close()
	if e := s.r.Close(); err == nil {
		err = e
	}
	if e := s.c.Close(); err == nil {
		err = e
	}
	return err
}

// walPath is the WAL file next to the database.
func (s *SQLite) walPath() string { return s.path + "-wal" }

// Bytes is the disk the database holds now: its file and its WAL (two
// stat calls). The room bounds what it lets players add by it
// (server.Config.MaxStoreBytes).
func (s *SQLite) Bytes() int64 { return fileSize(s.path) + fileSize(s.walPath()) }

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}
