package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/record"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// rawDB opens the file directly, without the store's checks, to set up
// or damage a database the way another program (or a disk) would.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, q string, args ...any) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// lockDB takes SQLite's write lock from another connection, as a second
// process would, and returns the function that releases it.
func lockDB(t *testing.T, path string) (release func()) {
	t.Helper()
	db := rawDB(t, path)
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, conn, `BEGIN IMMEDIATE`)
	var once sync.Once
	release = func() {
		once.Do(func() {
			mustExec(t, conn, `ROLLBACK`)
			conn.Close()
		})
	}
	t.Cleanup(release)
	return release
}

func openWith(t *testing.T, o SQLiteOptions) (*SQLite, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cardroom.db")
	st, err := OpenSQLiteWith(path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, path
}

func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()
	}
	return -1
}

// An Append whose ctx ends after the writer took its entry waits for the
// commit and reports it (nil); one whose ctx ends while its entry is still
// queued returns the ctx's error and the entry is never committed. Before,
// both returned the ctx's error and both entries were committed later.
func TestAppendNeverRefusedAndCommitted(t *testing.T) {
	st, path := openWith(t, SQLiteOptions{BusyTimeout: 10 * time.Second})
	release := lockDB(t, path)

	ctxA, cancelA := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancelA()
	resA := make(chan error, 1)
	go func() { resA <- st.Append(ctxA, "a", 0, record.Entry{Seat: 0, Text: "play 1S"}) }()
	// The writer has taken A once it starts a transaction (blocked on the lock).
	waitFor(t, "the writer to take A", 5*time.Second, func() bool { return st.txs.Load() == 1 })

	ctxB, cancelB := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancelB()
	errB := st.Append(ctxB, "b", 0, record.Entry{Seat: 0, Text: "play 2S"})
	if !errors.Is(errB, context.DeadlineExceeded) {
		t.Fatalf("queued append past its deadline: %v, want DeadlineExceeded", errB)
	}
	<-ctxA.Done()
	select {
	case err := <-resA:
		t.Fatalf("taken append returned %v while its commit was still pending", err)
	case <-time.After(100 * time.Millisecond):
	}
	release()
	select {
	case err := <-resA:
		if err != nil {
			t.Fatalf("taken append: %v, want nil (it was committed)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("taken append never returned")
	}
	if err := st.Append(context.Background(), "c", 0, record.Entry{Seat: 0, Text: "play 3S"}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int{"a": 1, "b": 0, "c": 1} {
		ev, err := st.Events(context.Background(), id)
		if err != nil || len(ev) != want {
			t.Errorf("events of %s = %v, %v; want %d", id, ev, err, want)
		}
	}
}

// The same property under load: many appends with deadlines of a few
// microseconds to a few milliseconds, some given up, some committed; each
// one's answer matches the log.
func TestAppendOutcomeMatchesLog(t *testing.T) {
	st, _ := openWith(t, SQLiteOptions{})
	const n = 2000
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%50)*20*time.Microsecond)
			defer cancel()
			errs[i] = st.Append(ctx, fmt.Sprintf("t%d", i), 0, record.Entry{Seat: 1, Text: "play 10S"})
		}(i)
	}
	wg.Wait()
	committed, refused := 0, 0
	for i, e := range errs {
		ev, err := st.Events(context.Background(), fmt.Sprintf("t%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if (e == nil) != (len(ev) == 1) {
			t.Fatalf("append %d returned %v but the log holds %d entries", i, e, len(ev))
		}
		if e == nil {
			committed++
		} else {
			refused++
		}
	}
	t.Logf("%d committed, %d refused", committed, refused)
}

func takenBatch(reqs ...*appendReq) []*appendReq {
	for _, r := range reqs {
		r.state.Store(reqTaken)
		r.reply = make(chan error, 1)
	}
	return reqs
}

// A batch that fails for a reason other than a conflict fails whole, in
// one transaction: retrying each entry alone against a locked database
// cost busy_timeout × entries.
func TestBatchFailsAtOnce(t *testing.T) {
	st, path := openWith(t, SQLiteOptions{BusyTimeout: 100 * time.Millisecond})
	release := lockDB(t, path)
	var batch []*appendReq
	for i := 0; i < 10; i++ {
		batch = append(batch, &appendReq{table: fmt.Sprintf("t%d", i), e: record.Entry{Text: "play 1S"}})
	}
	takenBatch(batch...)
	before := st.txs.Load()
	st.commit(batch)
	if n := st.txs.Load() - before; n != 1 {
		t.Errorf("a failed batch of 10 took %d transactions, want 1", n)
	}
	for i, r := range batch {
		err := <-r.reply
		if sqliteCode(err)&0xff != sqlite3.SQLITE_BUSY || errors.Is(err, ErrConflict) {
			t.Errorf("entry %d: %v, want SQLITE_BUSY", i, err)
		}
	}
	release()
	ev, err := st.Events(context.Background(), "t0")
	if err != nil || len(ev) != 0 {
		t.Errorf("a failed batch left %v, %v", ev, err)
	}
}

// A conflict fails alone, before the transaction: the writer knows each
// table's next seq (tail.go), so the batch's other entries commit in one
// transaction, and an entry whose seq skips ahead is refused as well.
func TestBatchConflictFailsAlone(t *testing.T) {
	st, _ := openWith(t, SQLiteOptions{})
	ctx := context.Background()
	if err := st.Append(ctx, "c", 0, record.Entry{Text: "play 1S"}); err != nil {
		t.Fatal(err)
	}
	batch := takenBatch(
		&appendReq{table: "c", seq: 1, e: record.Entry{Text: "play 2S"}},
		&appendReq{table: "c", seq: 0, e: record.Entry{Text: "dup"}},
		&appendReq{table: "d", seq: 0, e: record.Entry{Text: "play 3S"}},
		&appendReq{table: "d", seq: 2, e: record.Entry{Text: "gap"}},
		&appendReq{table: "c", seq: 2, e: record.Entry{Text: "play 4S"}},
	)
	before := st.txs.Load()
	st.commit(batch)
	if n := st.txs.Load() - before; n != 1 {
		t.Errorf("batch with conflicts: %d transactions, want 1", n)
	}
	for i, want := range []error{nil, ErrConflict, nil, ErrConflict, nil} {
		if err := <-batch[i].reply; !errors.Is(err, want) || (want == nil && err != nil) {
			t.Errorf("entry %d: %v, want %v", i, err, want)
		}
	}
	if ev, _ := st.Events(ctx, "c"); len(ev) != 3 || ev[1].Text != "play 2S" || ev[2].Text != "play 4S" {
		t.Errorf("events of c = %+v", ev)
	}
	if ev, _ := st.Events(ctx, "d"); len(ev) != 1 {
		t.Errorf("events of d = %+v", ev)
	}
}

// isConflict goes by the driver's code, not by words in a message.
func TestIsConflictByCode(t *testing.T) {
	if isConflict(errors.New("UNIQUE constraint failed: events.table_id, events.seq")) {
		t.Error("a plain error mentioning UNIQUE counted as a conflict")
	}
	st, _ := openWith(t, SQLiteOptions{})
	_, err := st.w.Exec(`INSERT INTO schema_migrations(version) VALUES ('001_init')`)
	if !isConflict(err) || sqliteCode(err) != sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY {
		t.Errorf("duplicate primary key: %v (code %d) not a conflict", err, sqliteCode(err))
	}
	_, err = st.w.Exec(`INSERT INTO tables(id) VALUES ('x')`) // NOT NULL, not a conflict
	if err == nil || isConflict(err) {
		t.Errorf("NOT NULL violation: %v counted as a conflict", err)
	}
}

func TestOpenOptions(t *testing.T) {
	if _, err := OpenSQLiteWith(filepath.Join(t.TempDir(), "x.db"), SQLiteOptions{Sync: "sometimes"}); err == nil {
		t.Error("bad sync accepted")
	}
	old := CheckpointEvery
	CheckpointEvery = 3 * time.Second
	defer func() { CheckpointEvery = old }()
	st, _ := openWith(t, SQLiteOptions{})
	if st.opt.Sync != "normal" || st.opt.BusyTimeout != 5*time.Second || st.opt.WALLimit != 64<<20 || st.opt.CheckpointEvery != 3*time.Second {
		t.Errorf("defaults = %+v", st.opt)
	}
	st2, _ := openWith(t, SQLiteOptions{Sync: "full", BusyTimeout: 1500 * time.Millisecond, WALLimit: 1 << 20, CheckpointEvery: time.Minute})
	var busy, limit, sync int64
	st2.w.QueryRow(`PRAGMA busy_timeout`).Scan(&busy)
	st2.w.QueryRow(`PRAGMA journal_size_limit`).Scan(&limit)
	st2.w.QueryRow(`PRAGMA synchronous`).Scan(&sync)
	if busy != 1500 || limit != 1<<20 || sync != 2 {
		t.Errorf("writer pragmas: busy_timeout %d, journal_size_limit %d, synchronous %d", busy, limit, sync)
	}
	if s := st2.Stats(); s.WALLimit != 1<<20 {
		t.Errorf("Stats.WALLimit = %d", s.WALLimit)
	}
}

// TestPageSize: a database the store creates has the option's page size
// (1 KiB by default: the log's entries each write a page to the WAL), also
// once it is closed and opened again; a database that exists keeps the
// page size it was made with, whatever the option says; a page size that
// SQLite cannot use is refused before anything is created.
func TestPageSize(t *testing.T) {
	pageSize := func(st *SQLite) int {
		var n int
		if err := st.r.QueryRow(`PRAGMA page_size`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "new.db")
	st, err := OpenSQLiteWith(path, SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := pageSize(st); n != DefaultPageSize {
		t.Fatalf("a new database's page size is %d, want %d", n, DefaultPageSize)
	}
	st.Close()
	st, err = OpenSQLiteWith(path, SQLiteOptions{PageSize: 8192})
	if err != nil {
		t.Fatal(err)
	}
	if n := pageSize(st); n != DefaultPageSize {
		t.Fatalf("reopened with another page size: %d, want the database's %d", n, DefaultPageSize)
	}
	st.Close()
	st, err = OpenSQLiteWith(filepath.Join(dir, "big.db"), SQLiteOptions{PageSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if n := pageSize(st); n != 4096 {
		t.Fatalf("page size %d, want 4096", n)
	}
	st.Close()
	for _, bad := range []int{100, 1000, 131072, -1} {
		p := filepath.Join(dir, fmt.Sprintf("bad%d.db", bad))
		if _, err := OpenSQLiteWith(p, SQLiteOptions{PageSize: bad}); err == nil {
			t.Errorf("page size %d accepted", bad)
		}
		if _, err := os.Stat(p); err == nil {
			t.Errorf("page size %d: a file was created", bad)
		}
	}
}

// A checkpointer that falls behind (its catch-up stalled, as when it is
// starved of CPU) does not let the WAL grow: at walHardCap times the limit
// the writer restarts it itself, and Stats counts those restarts.
func TestWALHardCap(t *testing.T) {
	const limit = 256 << 10
	st, path := openWith(t, SQLiteOptions{WALLimit: limit})
	release := make(chan struct{})
	st.wal.testStall.Store(func() { <-release })
	defer close(release)
	text := "play " + strings.Repeat("x", 200)
	var maxWAL int64
	for seq := 0; seq < 1500; seq++ {
		// A table each, so every entry dirties a page of its own.
		if err := st.Append(context.Background(), fmt.Sprintf("t%d", seq), 0, record.Entry{Seat: 1, Text: text}); err != nil {
			t.Fatal(err)
		}
		maxWAL = max(maxWAL, fileSize(path+"-wal"))
	}
	s := st.Stats()
	t.Logf("WAL max %d KiB with a limit of %d KiB; %d restarts, %d forced", maxWAL>>10, limit>>10, s.Restarts, s.ForcedRestarts)
	if s.ForcedRestarts == 0 || s.Restarts < s.ForcedRestarts {
		t.Errorf("stats %+v: no forced restart with the catch-up stalled", s)
	}
	// One commit at a time here: the file passes the cap by one commit's
	// frames at most before the writer restarts it.
	if maxWAL > walHardCap*limit+64<<10 {
		t.Errorf("WAL reached %d bytes, over %d times its limit of %d", maxWAL, walHardCap, limit)
	}
}

// Appends from many goroutines for two seconds with a 1 MiB limit: the WAL
// stays within a few times the limit (before, passive checkpoints let it
// grow with everything written), and Stats says so.
func TestWALBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("2 s of appends")
	}
	const limit = 1 << 20
	st, path := openWith(t, SQLiteOptions{WALLimit: limit})
	text := "play " + strings.Repeat("x", 200)
	var stop atomic.Bool
	var maxWAL atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 64; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for seq := 0; !stop.Load(); seq++ {
				if err := st.Append(context.Background(), fmt.Sprintf("t%d", g), seq, record.Entry{Seat: 1, Text: text}); err != nil {
					t.Error(err)
					return
				}
			}
		}(g)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if n := fileSize(path + "-wal"); n > maxWAL.Load() {
				maxWAL.Store(n)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	time.Sleep(2 * time.Second)
	stop.Store(true)
	wg.Wait()
	s := st.Stats()
	t.Logf("entries %d (%d MiB of text) in %d commits; WAL max %d KiB, now %d KiB; %d checkpoints, %d restarts (%d forced; %d frames left to them), %d errors (last %q)",
		s.Entries, s.Entries*int64(len(text))>>20, s.Commits, maxWAL.Load()>>10, s.WALBytes>>10, s.Checkpoints, s.Restarts, s.ForcedRestarts, s.RestartBacklog, s.CheckpointErrors, s.LastCheckpointError)
	if s.Restarts < 5 {
		t.Fatalf("the WAL went over its limit only %d times: too little written to test it", s.Restarts)
	}
	if m := maxWAL.Load(); m > 4*limit {
		t.Errorf("WAL reached %d bytes with a limit of %d", m, limit)
	}
	if s.Restarts == 0 || s.Checkpoints < s.Restarts {
		t.Errorf("stats %+v: no restart of the WAL", s)
	}
	// The copying back is done beside the commits: the writer's restarts
	// are left a small part of it (every entry is a frame at least; the
	// writer used to copy them all).
	if s.RestartBacklog*4 > s.Entries {
		t.Errorf("the writer's restarts were left %d frames to copy back of %d entries", s.RestartBacklog, s.Entries)
	}
	// The WAL may still be restarted or cut after the appends stop: read
	// the stats until they agree with the file.
	for range 100 {
		if s = st.Stats(); s.WALBytes == fileSize(path+"-wal") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if s.WALLimit != limit || s.WALOverLimit || s.WALBytes != fileSize(path+"-wal") {
		t.Errorf("stats %+v", s)
	}
}

// A reader that holds an old snapshot keeps the WAL from being truncated:
// Stats raises the alarm, and lowers it once the reader is gone.
func TestWALOverLimitAlarm(t *testing.T) {
	const limit = 64 << 10
	st, path := openWith(t, SQLiteOptions{WALLimit: limit, BusyTimeout: 400 * time.Millisecond, CheckpointEvery: 50 * time.Millisecond})
	ctx := context.Background()
	text := strings.Repeat("y", 1000)
	seq := 0
	appendN := func(n int) {
		for i := 0; i < n; i++ {
			if err := st.Append(ctx, "t", seq, record.Entry{Seat: 0, Text: text}); err != nil {
				t.Fatal(err)
			}
			seq++
		}
	}
	appendN(5)
	reader, err := rawDB(t, path).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, reader, `BEGIN`)
	var n int
	if err := reader.QueryRowContext(ctx, `SELECT count(*) FROM event_tail`).Scan(&n); err != nil || n != 5 {
		t.Fatalf("reader: %d, %v", n, err)
	}
	appendN(200)
	waitFor(t, "WALOverLimit", 10*time.Second, func() bool { return st.Stats().WALOverLimit })
	if s := st.Stats(); s.CheckpointErrors == 0 || s.WALBytes <= limit || s.LastCheckpointError == "" {
		t.Errorf("alarm raised but stats %+v", s)
	}
	mustExec(t, reader, `COMMIT`)
	reader.Close()
	waitFor(t, "the alarm to clear", 10*time.Second, func() bool { s := st.Stats(); return !s.WALOverLimit && s.WALBytes <= limit })
}

// Files that are not a Cardroom database are refused, named, and left as
// they were.
func TestRefuseForeignFiles(t *testing.T) {
	dir := t.TempDir()
	check := func(name string, setup func(path string), want string) {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".db")
			setup(path)
			before, _ := os.ReadFile(path)
			st, err := OpenSQLite(path)
			if err == nil {
				st.Close()
				t.Fatal("opened")
			}
			msg := err.Error()
			if !errors.Is(err, ErrNotCardroom) || !strings.Contains(msg, path) || !strings.Contains(msg, "move it away") || !strings.Contains(msg, want) {
				t.Errorf("error %q: want ErrNotCardroom naming the path, %q and what to do", msg, want)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("the refused file was modified")
			}
			if _, err := OpenSQLiteReadOnly(path); !errors.Is(err, ErrNotCardroom) {
				t.Errorf("read-only open: %v", err)
			}
		})
	}
	check("empty", func(p string) { os.WriteFile(p, nil, 0o644) }, "empty file")
	check("text", func(p string) { os.WriteFile(p, []byte("these are my notes, not a database\n"), 0o644) }, "not an SQLite database")
	check("short", func(p string) { os.WriteFile(p, []byte("SQLite"), 0o644) }, "not an SQLite database")
	check("photos", func(p string) {
		db := rawDB(t, p)
		mustExec(t, db, `CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)`)
		mustExec(t, db, `CREATE TABLE sessions (x)`)
		db.Close()
	}, "tables photos")
	check("other-app", func(p string) {
		db := rawDB(t, p)
		mustExec(t, db, `PRAGMA application_id = 42`)
		mustExec(t, db, `CREATE TABLE sessions (x)`)
		db.Close()
	}, "application_id is 0x2a")
	check("ours-no-migrations", func(p string) {
		db := rawDB(t, p)
		mustExec(t, db, `CREATE TABLE events (x)`)
		db.Close()
	}, "no schema_migrations")
}

// A new path is created and stamped; an old Cardroom database (id 0, the
// old migration name) is recognised, stamped and migrated without running
// 001 again; one from a newer version is refused.
func TestIdentityAndLegacyMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "cardroom.db")
	os.MkdirAll(filepath.Dir(path), 0o755)
	st, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.CreateTable(ctx, Table{ID: "t1", Game: "papayoo", Options: "players=4", Status: StatusPlaying}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	db := rawDB(t, path)
	var id int64
	db.QueryRow(`PRAGMA application_id`).Scan(&id)
	if id != ApplicationID {
		t.Fatalf("new database has application_id %#x", id)
	}
	// Make it look like a database from before this change.
	mustExec(t, db, `PRAGMA application_id = 0`)
	mustExec(t, db, `UPDATE schema_migrations SET version = 'migrations/001_init.sql' WHERE version = '001_init'`)
	mustExec(t, db, `DELETE FROM schema_migrations WHERE version = '002_sessions_expires'`)
	mustExec(t, db, `DROP INDEX sessions_expires`)
	db.Close()

	st, err = OpenSQLite(path)
	if err != nil {
		t.Fatalf("old Cardroom database refused: %v", err)
	}
	if ids, err := st.UnfinishedIDs(ctx); err != nil || len(ids) != 1 {
		t.Errorf("unfinished after upgrade: %v, %v", ids, err)
	}
	st.Close()
	db = rawDB(t, path)
	db.QueryRow(`PRAGMA application_id`).Scan(&id)
	var idx int
	db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'sessions_expires'`).Scan(&idx)
	var versions []string
	rows, _ := db.Query(`SELECT version FROM schema_migrations ORDER BY version`)
	for rows.Next() {
		var v string
		rows.Scan(&v)
		versions = append(versions, v)
	}
	rows.Close()
	// Every migration after the first is recorded by its name; the first
	// keeps its old version text.
	ms, _ := loadMigrations()
	var want []string
	for _, m := range ms[1:] {
		want = append(want, m.name)
	}
	want = append(want, "migrations/001_init.sql")
	if id != ApplicationID || idx != 1 || strings.Join(versions, ",") != strings.Join(want, ",") {
		t.Errorf("after upgrade: application_id %#x, index %d, versions %v", id, idx, versions)
	}
	mustExec(t, db, `INSERT INTO schema_migrations(version) VALUES ('999_future')`)
	db.Close()
	if st, err := OpenSQLite(path); err == nil || !strings.Contains(err.Error(), "999_future") || !strings.Contains(err.Error(), "newer") {
		if err == nil {
			st.Close()
		}
		t.Errorf("database with an unknown migration: %v", err)
	}
}

func schemaObjects(t *testing.T, st *SQLite) []string {
	t.Helper()
	rows, err := st.w.Query(`SELECT type || ' ' || name FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	return out
}

func TestMigrateDownAndUp(t *testing.T) {
	st, _ := openWith(t, SQLiteOptions{})
	ctx := context.Background()
	full := strings.Join(schemaObjects(t, st), ",")
	if !strings.Contains(full, "index sessions_expires") || !strings.Contains(full, "table events") {
		t.Fatalf("schema after up: %s", full)
	}
	if err := st.MigrateDown(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(schemaObjects(t, st), ","); strings.Contains(s, "sessions_expires") || !strings.Contains(s, "table events") {
		t.Errorf("schema after down to 1: %s", s)
	}
	if err := st.MigrateDown(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(schemaObjects(t, st), ","); s != "table schema_migrations" {
		t.Errorf("schema after down to 0: %s", s)
	}
	if v, _ := appliedMigrations(ctx, st.w); len(v) != 0 {
		t.Errorf("versions after down to 0: %v", v)
	}
	if err := st.migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(schemaObjects(t, st), ","); s != full {
		t.Errorf("schema after up again:\n%s\nwant\n%s", s, full)
	}
	if err := st.Append(ctx, "t", 0, record.Entry{Seat: 0, Text: "play 1S"}); err != nil {
		t.Errorf("append after down and up: %v", err)
	}
}

// fill creates tables with n events each; the texts carry the table's
// name and the seq so damage can be aimed at one table's pages.
func fill(t *testing.T, st Store, n int, ids ...string) {
	t.Helper()
	ctx := context.Background()
	for _, id := range ids {
		if err := st.CreateTable(ctx, Table{ID: id, Game: "papayoo", Options: "players=4", Status: StatusPlaying, Seats: []Seat{{Name: "a"}, {Name: "b"}}}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			e := record.Entry{Seat: game.Seat(i % 4), Text: fmt.Sprintf("%s-%04d-%s", id, i, strings.Repeat("z", 80))}
			if err := st.Append(ctx, id, i, e); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Damage in one table's log fails that table's Events, loudly, and leaves
// the others readable.
func TestEventsDamagePerTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cardroom.db")
	st, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, st, 10, "gap", "seat", "text", "fine")
	st.Close()
	db := rawDB(t, path)
	mustExec(t, db, `DELETE FROM events WHERE table_id = 'gap' AND seq = 5`)
	mustExec(t, db, `UPDATE events SET seat = 99 WHERE table_id = 'seat' AND seq = 3`)
	mustExec(t, db, `UPDATE events SET seat = 'x' WHERE table_id = 'text' AND seq = 7`)
	db.Close()

	st, err = OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	ids, err := st.UnfinishedIDs(ctx)
	if err != nil || strings.Join(ids, ",") != "fine,gap,seat,text" {
		t.Fatalf("unfinished ids = %v, %v", ids, err)
	}
	for id, want := range map[string]string{"gap": "gap at 5", "seat": "event 3 is damaged", "text": "event 7 unreadable"} {
		ev, err := st.Events(ctx, id)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), id) {
			t.Errorf("events of %s: %d events, %v; want an error with %q", id, len(ev), err, want)
		}
	}
	if ev, err := st.Events(ctx, "fine"); err != nil || len(ev) != 10 {
		t.Errorf("events of the sound table: %d, %v", len(ev), err)
	}
}

// corruptLeafOf overwrites, with garbage, a b-tree leaf page of the
// database file that holds the marker and not other; it returns the page
// number.
func corruptLeafOf(t *testing.T, path, marker, other string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := int(data[16])<<8 | int(data[17])
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte(marker))
		if i < 0 {
			t.Fatalf("no leaf page holds %q", marker)
		}
		p := (off + i) / pageSize
		page := data[p*pageSize : (p+1)*pageSize]
		if p > 0 && page[0] == 0x0a && !bytes.Contains(page, []byte(other)) { // index b-tree leaf
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt(bytes.Repeat([]byte{0xff}, pageSize), int64(p*pageSize)); err != nil {
				t.Fatal(err)
			}
			f.Close()
			return p + 1
		}
		off = (p + 1) * pageSize
	}
}

// A page of one table's log overwritten on disk: that table's Events
// fails, while the table list, the other table and their rows still read,
// and integrity_check reports the damage.
func TestCorruptPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cardroom.db")
	st, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, st, 400, "ta", "tb")
	st.Close() // checkpoints everything into the file
	if n := fileSize(path + "-wal"); n != 0 {
		t.Fatalf("WAL left after close: %d bytes", n)
	}
	page := corruptLeafOf(t, path, "ta-0200-", "tb-")
	t.Logf("overwrote page %d", page)

	st, err = OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	ids, err := st.UnfinishedIDs(ctx)
	if err != nil || strings.Join(ids, ",") != "ta,tb" {
		t.Fatalf("unfinished ids = %v, %v", ids, err)
	}
	for _, id := range ids {
		if tb, err := st.Table(ctx, id); err != nil || len(tb.Seats) != 2 {
			t.Errorf("table %s: %+v, %v", id, tb, err)
		}
	}
	if ev, err := st.Events(ctx, "ta"); err == nil || !strings.Contains(err.Error(), "table ta") {
		t.Errorf("events of the damaged table: %d, %v; want an error", len(ev), err)
	} else {
		t.Logf("damaged table: %v", err)
	}
	if ev, err := st.Events(ctx, "tb"); err != nil || len(ev) != 400 {
		t.Errorf("events of the sound table: %d, %v", len(ev), err)
	}
	if found, err := st.IntegrityCheck(ctx); err != nil || len(found) == 0 {
		t.Errorf("integrity_check: %v, %v; want findings", found, err)
	}
}

// A read-only store reads a live room and refuses every write.
func TestReadOnly(t *testing.T) {
	st, path := openWith(t, SQLiteOptions{})
	fill(t, st, 3, "t1")
	ro, err := OpenSQLiteReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if ev, err := ro.Events(ctx, "t1"); err != nil || len(ev) != 3 {
		t.Errorf("read-only events: %d, %v", len(ev), err)
	}
	if found, err := ro.IntegrityCheck(ctx); err != nil || len(found) != 0 {
		t.Errorf("integrity: %v, %v", found, err)
	}
	if err := ro.Append(ctx, "t1", 3, record.Entry{Text: "x"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only append: %v", err)
	}
	if err := ro.CreateSession(ctx, Session{TokenHash: "h"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only session: %v", err)
	}
	if err := ro.Close(); err != nil {
		t.Error(err)
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if _, err := OpenSQLiteReadOnly(missing); err == nil {
		t.Error("read-only open of a missing file succeeded")
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Error("read-only open created the file")
	}
}

// The statuses, session purge and ctx rules hold for every implementation.
func TestStoreContractHardening(t *testing.T) {
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			now := time.Now().UTC().Truncate(time.Millisecond)
			for i, status := range []Status{StatusPlaying, StatusClosed, StatusOpen, StatusFinished} {
				tb := Table{ID: fmt.Sprintf("t%d", 4-i), Game: "papayoo", Options: "players=4", Status: status, Created: now.Add(time.Duration(i) * time.Second),
					Seats: []Seat{{Player: "p1", Name: "alice"}}}
				if err := st.CreateTable(ctx, tb); err != nil {
					t.Fatal(err)
				}
			}
			ids, err := st.UnfinishedIDs(ctx)
			if err != nil || strings.Join(ids, ",") != "t2,t4" {
				t.Errorf("unfinished ids = %v, %v; want t2,t4 (open and playing, in id order)", ids, err)
			}
			if u, err := st.Unfinished(ctx); err != nil || len(u) != 2 || u[0].ID != "t2" || u[1].ID != "t4" {
				t.Errorf("unfinished = %+v, %v", u, err)
			}
			var hist []string
			h, err := st.History(ctx, "p1", 10)
			for _, tb := range h {
				hist = append(hist, tb.ID)
			}
			if err != nil || strings.Join(hist, ",") != "t1,t2,t4" {
				t.Errorf("history = %v, %v; want t1,t2,t4 (newest first, without the closed table)", hist, err)
			}

			for i, exp := range []time.Duration{-time.Hour, 0, time.Hour} {
				s := Session{TokenHash: fmt.Sprintf("h%d", i), Player: "p", Name: "n", Created: now.Add(-2 * time.Hour), Expires: now.Add(exp)}
				if err := st.CreateSession(ctx, s); err != nil {
					t.Fatal(err)
				}
			}
			if n, err := st.CountSessions(ctx); err != nil || n != 3 {
				t.Errorf("count = %d, %v", n, err)
			}
			if n, err := st.PurgeSessions(ctx, now); err != nil || n != 2 {
				t.Errorf("purged %d, %v; want 2 (expiry before and at now)", n, err)
			}
			if _, err := st.Session(ctx, "h2"); err != nil {
				t.Errorf("the live session was purged: %v", err)
			}
			if _, err := st.Session(ctx, "h1"); !errors.Is(err, ErrNotFound) {
				t.Errorf("the session expiring now survived: %v", err)
			}
			if n, _ := st.CountSessions(ctx); n != 1 {
				t.Errorf("count after purge = %d", n)
			}

			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if err := st.Append(cctx, "t4", 0, record.Entry{Seat: 0, Text: "play 1S"}); !errors.Is(err, context.Canceled) {
				t.Errorf("append with a cancelled ctx: %v", err)
			}
			if ev, err := st.Events(ctx, "t4"); err != nil || len(ev) != 0 {
				t.Errorf("a refused append was logged: %v, %v", ev, err)
			}
		})
	}
}

// Paths with characters that mean something in a URI still open the file
// they name.
func TestOpenOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my room #1?x=y%20", "cardroom.db")
	os.MkdirAll(filepath.Dir(path), 0o755)
	st, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, st, 2, "t1")
	st.Close()
	if fileSize(path) == 0 {
		t.Fatalf("nothing written at %s", path)
	}
	ro, err := OpenSQLiteReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if ev, err := ro.Events(context.Background(), "t1"); err != nil || len(ev) != 2 {
		t.Errorf("events: %d, %v", len(ev), err)
	}
}

// TestWinnersAsData: winners are stored and read as seats; a finished game
// of a database from before the winners column gets them from its result
// text once, when the migration runs.
func TestWinnersAsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cardroom.db")
	st, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	tb := Table{ID: "t_new", Game: "papayoo", Status: StatusFinished, Result: "totals 1 2 3; winners 0 2", Winners: []game.Seat{0, 2}, Created: time.Now()}
	if err := st.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	old := Table{ID: "t_old", Game: "papayoo", Status: StatusFinished, Result: "totals 5 4 3; winners 2", Created: time.Now()}
	if err := st.CreateTable(ctx, old); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Table(ctx, "t_new"); fmt.Sprint(got.Winners) != "[0 2]" {
		t.Fatalf("stored winners read back as %v", got.Winners)
	}
	// Back to the schema without the column, then up again: the migration
	// fills the old game's winners from its result.
	if err := st.MigrateDown(ctx, 2); err != nil {
		t.Fatal(err)
	}
	st.Close()
	st, err = OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for id, want := range map[string]string{"t_new": "[0 2]", "t_old": "[2]"} {
		got, err := st.Table(ctx, id)
		if err != nil || fmt.Sprint(got.Winners) != want {
			t.Errorf("%s after the migration: winners %v (%v), want %s", id, got.Winners, err, want)
		}
	}
}
