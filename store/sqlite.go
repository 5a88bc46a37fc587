package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/game"
	"cardroom/record"

	_ "modernc.org/sqlite" // the "sqlite" driver, pure Go
)

//go:embed migrations/*.sql
var migrations embed.FS

// SQLite is the embedded Store: one database file in WAL mode, one writer
// connection, and a pool of readers. Appends from all tables go through one
// goroutine that commits them in batches (group commit), so a thousand
// tables moving at once cost a few transactions, not a thousand.
type SQLite struct {
	w, r, c *sql.DB   // writer, readers, checkpointer
	ins     *sql.Stmt // the event insert, prepared once on the writer connection

	appends chan appendReq
	done    chan struct{}
	stopped chan struct{}
	wg      sync.WaitGroup
	once    sync.Once

	commits, entries atomic.Int64 // CommitStats
}

type appendReq struct {
	table string
	seq   int
	e     record.Entry
	reply chan error
}

// OpenSQLite opens (creating if needed) the database at path and applies
// the embedded migrations, with synchronous=NORMAL.
func OpenSQLite(path string) (*SQLite, error) { return OpenSQLiteSync(path, "normal") }

// OpenSQLiteSync is OpenSQLite with SQLite's synchronous setting: "normal"
// (WAL commits are not fsynced, checkpoints are: a process crash loses
// nothing committed, a power loss may lose the last commits) or "off" (no
// fsync at all: a process crash still loses nothing, an OS crash may
// corrupt the database) or "full" (every commit fsynced).
func OpenSQLiteSync(path, sync string) (*SQLite, error) {
	switch sync {
	case "normal", "off", "full":
	default:
		return nil, fmt.Errorf("synchronous: want normal, off or full, not %q", sync)
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "synchronous("+strings.ToUpper(sync)+")")
	q.Add("_pragma", "foreign_keys(1)")
	dsn := "file:" + path + "?" + q.Encode()
	// The writer never checkpoints (a checkpoint fsyncs, and the writer's
	// commits would wait for it); a background goroutine does, on its own
	// connection, without blocking commits.
	w, err := sql.Open("sqlite", dsn+"&_txlock=immediate&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(4)
	c, err := sql.Open("sqlite", dsn)
	if err != nil {
		w.Close()
		r.Close()
		return nil, err
	}
	c.SetMaxOpenConns(1)
	s := &SQLite{w: w, r: r, c: c, appends: make(chan appendReq, 4096), done: make(chan struct{}), stopped: make(chan struct{})}
	if err := s.migrate(); err != nil {
		w.Close()
		r.Close()
		c.Close()
		return nil, err
	}
	s.ins, err = w.Prepare(insertEvent)
	if err != nil {
		w.Close()
		r.Close()
		c.Close()
		return nil, err
	}
	s.wg.Add(2)
	go s.writer()
	go s.checkpointer()
	return s, nil
}

// CheckpointEvery is the period of the background WAL checkpoint.
var CheckpointEvery = time.Second

func (s *SQLite) checkpointer() {
	defer s.wg.Done()
	tk := time.NewTicker(CheckpointEvery)
	defer tk.Stop()
	for {
		select {
		case <-s.done:
			s.c.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
			return
		case <-tk.C:
			s.c.Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
		}
	}
}

func (s *SQLite) migrate() error {
	ctx := context.Background()
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY)`); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, n := range names {
		var one int
		err := s.w.QueryRowContext(ctx, `SELECT 1 FROM schema_migrations WHERE version = ?`, n).Scan(&one)
		if err == nil {
			continue
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		body, err := migrations.ReadFile(n)
		if err != nil {
			return err
		}
		tx, err := s.w.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		for _, stmt := range strings.Split(string(body), ";") {
			if strings.TrimSpace(stripComments(stmt)) == "" {
				continue
			}
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				tx.Rollback()
				return fmt.Errorf("migration %s: %w", n, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version) VALUES (?)`, n); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

func stripComments(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "--") {
			continue
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// writer commits queued appends in batches.
func (s *SQLite) writer() {
	defer s.wg.Done()
	defer close(s.stopped)
	batch := make([]appendReq, 0, 512)
	for {
		select {
		case <-s.done:
			// Drain what is queued, then stop.
			for {
				select {
				case r := <-s.appends:
					batch = append(batch, r)
				default:
					if len(batch) > 0 {
						s.commit(batch)
					}
					return
				}
			}
		case r := <-s.appends:
			batch = append(batch[:0], r)
			if len(s.appends) == 0 {
				// Let the goroutines that are ready run first: under load some
				// are tables about to append, and one commit then serves them
				// too (a commit costs far more than an entry). Idle, this
				// returns at once.
				runtime.Gosched()
			}
		more:
			for len(batch) < cap(batch) {
				select {
				case r := <-s.appends:
					batch = append(batch, r)
				default:
					break more
				}
			}
			s.commit(batch)
			batch = batch[:0]
		}
	}
}

// CommitStats returns the event-log transactions committed and the
// entries they held (the group commit's batching).
func (s *SQLite) CommitStats() (commits, entries int64) {
	return s.commits.Load(), s.entries.Load()
}

func (s *SQLite) commit(batch []appendReq) {
	err := s.insert(batch)
	if err == nil {
		s.commits.Add(1)
		s.entries.Add(int64(len(batch)))
		for _, r := range batch {
			r.reply <- nil
		}
		return
	}
	if len(batch) == 1 {
		if strings.Contains(err.Error(), "UNIQUE") || strings.Contains(err.Error(), "PRIMARY KEY") {
			err = ErrConflict
		}
		batch[0].reply <- err
		return
	}
	// One entry spoiled the batch (a conflict): commit them one by one so
	// only that one fails.
	for _, r := range batch {
		s.commit([]appendReq{r})
	}
}

const insertEvent = `INSERT INTO events(table_id, seq, seat, chance, text) VALUES (?, ?, ?, ?, ?)`

// insert writes a batch of entries in one transaction.
func (s *SQLite) insert(batch []appendReq) error {
	tx, err := s.w.Begin()
	if err != nil {
		return err
	}
	// The writer has one connection: the statement prepared on it is reused.
	st := tx.Stmt(s.ins)
	defer st.Close()
	for _, r := range batch {
		chance := 0
		if r.e.Chance {
			chance = 1
		}
		if _, err := st.Exec(r.table, r.seq, int(r.e.Seat), chance, r.e.Text); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// Append implements Store.
func (s *SQLite) Append(ctx context.Context, table string, seq int, e record.Entry) error {
	r := appendReq{table: table, seq: seq, e: e, reply: make(chan error, 1)}
	select {
	case s.appends <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return errors.New("store closed")
	}
	select {
	case err := <-r.reply:
		return err
	case <-s.stopped:
		select {
		case err := <-r.reply:
			return err
		default:
			return errors.New("store closed")
		}
	case <-ctx.Done():
		// The entry may still be committed; the caller treats this as a
		// fault and reloads from the log.
		return ctx.Err()
	}
}

// Events implements Store.
func (s *SQLite) Events(ctx context.Context, table string) ([]record.Entry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT seq, seat, chance, text FROM events WHERE table_id = ? ORDER BY seq`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []record.Entry
	for rows.Next() {
		var seq, seat, chance int
		var text string
		if err := rows.Scan(&seq, &seat, &chance, &text); err != nil {
			return nil, err
		}
		if seq != len(out) {
			return nil, fmt.Errorf("table %s: event log has a gap at %d", table, len(out))
		}
		out = append(out, record.Entry{Chance: chance != 0, Seat: seatOf(seat), Text: text})
	}
	return out, rows.Err()
}

func seatOf(n int) game.Seat { return game.Seat(n) }

// CreateSession implements Store.
func (s *SQLite) CreateSession(ctx context.Context, se Session) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO sessions(token_hash, player, name, created, expires) VALUES (?, ?, ?, ?, ?)`,
		se.TokenHash, se.Player, se.Name, se.Created.UnixMilli(), se.Expires.UnixMilli())
	return err
}

// Session implements Store.
func (s *SQLite) Session(ctx context.Context, h string) (Session, error) {
	var se Session
	var c, e int64
	err := s.r.QueryRowContext(ctx, `SELECT token_hash, player, name, created, expires FROM sessions WHERE token_hash = ?`, h).
		Scan(&se.TokenHash, &se.Player, &se.Name, &c, &e)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, ErrNotFound
	}
	se.Created, se.Expires = time.UnixMilli(c).UTC(), time.UnixMilli(e).UTC()
	return se, err
}

// DeleteSession implements Store.
func (s *SQLite) DeleteSession(ctx context.Context, h string) error {
	_, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, h)
	return err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CreateTable implements Store.
func (s *SQLite) CreateTable(ctx context.Context, t Table) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO tables(id, game, options, private, invite, clock_ms, bot_level, owner, seed, created, status, result, finished)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.ID, t.Game, t.Options, b2i(t.Private), t.Invite, t.ClockMS, t.BotLevel, t.Owner, int64(t.Seed), t.Created.UnixMilli(), t.Status, orStar(t.Result), ms(t.Finished))
	if err != nil {
		return err
	}
	if err := writeSeats(ctx, tx, t); err != nil {
		return err
	}
	return tx.Commit()
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

func writeSeats(ctx context.Context, tx *sql.Tx, t Table) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM seats WHERE table_id = ?`, t.ID); err != nil {
		return err
	}
	for i, st := range t.Seats {
		if _, err := tx.ExecContext(ctx, `INSERT INTO seats(table_id, seat, player, name, bot) VALUES (?, ?, ?, ?, ?)`,
			t.ID, i, st.Player, st.Name, st.Bot); err != nil {
			return err
		}
	}
	return nil
}

// UpdateTable implements Store.
func (s *SQLite) UpdateTable(ctx context.Context, t Table) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE tables SET status = ?, result = ?, finished = ? WHERE id = ?`,
		t.Status, orStar(t.Result), ms(t.Finished), t.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	if err := writeSeats(ctx, tx, t); err != nil {
		return err
	}
	return tx.Commit()
}

const tableCols = `id, game, options, private, invite, clock_ms, bot_level, owner, seed, created, status, result, finished`

func scanTable(sc interface{ Scan(...any) error }) (Table, error) {
	var t Table
	var priv int
	var seed, created, finished int64
	err := sc.Scan(&t.ID, &t.Game, &t.Options, &priv, &t.Invite, &t.ClockMS, &t.BotLevel, &t.Owner, &seed, &created, &t.Status, &t.Result, &finished)
	t.Private = priv != 0
	t.Seed = uint64(seed)
	t.Created = time.UnixMilli(created).UTC()
	if finished != 0 {
		t.Finished = time.UnixMilli(finished).UTC()
	}
	return t, err
}

func (s *SQLite) seats(ctx context.Context, t *Table) error {
	rows, err := s.r.QueryContext(ctx, `SELECT seat, player, name, bot FROM seats WHERE table_id = ? ORDER BY seat`, t.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	t.Seats = nil
	for rows.Next() {
		var n int
		var st Seat
		if err := rows.Scan(&n, &st.Player, &st.Name, &st.Bot); err != nil {
			return err
		}
		for len(t.Seats) <= n {
			t.Seats = append(t.Seats, Seat{})
		}
		t.Seats[n] = st
	}
	return rows.Err()
}

// Table implements Store.
func (s *SQLite) Table(ctx context.Context, id string) (Table, error) {
	t, err := scanTable(s.r.QueryRowContext(ctx, `SELECT `+tableCols+` FROM tables WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Table{}, ErrNotFound
	}
	if err != nil {
		return Table{}, err
	}
	return t, s.seats(ctx, &t)
}

func (s *SQLite) tables(ctx context.Context, query string, args ...any) ([]Table, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var out []Table
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if err := s.seats(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Unfinished implements Store.
func (s *SQLite) Unfinished(ctx context.Context) ([]Table, error) {
	return s.tables(ctx, `SELECT `+tableCols+` FROM tables WHERE status != ? ORDER BY id`, StatusFinished)
}

// History implements Store.
func (s *SQLite) History(ctx context.Context, player string, limit int) ([]Table, error) {
	if limit <= 0 {
		limit = 100
	}
	return s.tables(ctx, `SELECT `+tableCols+` FROM tables WHERE id IN (SELECT table_id FROM seats WHERE player = ?) ORDER BY created DESC, id LIMIT ?`, player, limit)
}

// Close stops the writer after committing what is queued, and closes the database.
func (s *SQLite) Close() error {
	s.once.Do(func() { close(s.done) })
	s.wg.Wait()
	s.ins.Close()
	err := s.w.Close()
	if e := s.r.Close(); err == nil {
		err = e
	}
	if e := s.c.Close(); err == nil {
		err = e
	}
	return err
}
