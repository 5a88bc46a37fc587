package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/record"
)

// logEntry is entry seq of table id in these tests: its text names both,
// so a misplaced or reordered entry shows.
func logEntry(id string, seq int) record.Entry {
	return record.Entry{Seat: game.Seat(1 + seq%3), Chance: seq%5 == 0, Text: fmt.Sprintf("%s #%d", id, seq)}
}

// checkLog fails unless ev is the first n entries of table id (n < 0: any
// prefix).
func checkLog(t *testing.T, id string, ev []record.Entry, n int) {
	t.Helper()
	if n >= 0 && len(ev) != n {
		t.Errorf("table %s: %d entries, want %d", id, len(ev), n)
	}
	for i, e := range ev {
		if e != logEntry(id, i) {
			t.Errorf("table %s: entry %d is %+v, want %+v", id, i, e, logEntry(id, i))
			return
		}
	}
}

// checkEvents fails unless st's log of table id is its first n entries
// (n < 0: any prefix).
func checkEvents(t *testing.T, st Store, id string, n int) {
	t.Helper()
	ev, err := st.Events(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	checkLog(t, id, ev, n)
}

// appendRound appends entry seq of every table, concurrently (one
// commit or a few: the tail's rows interleave the tables).
func appendRound(t *testing.T, st Store, ids []string, seq int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(ids))
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = st.Append(context.Background(), id, seq, logEntry(id, seq))
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

func tableIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("t%02d", i)
	}
	return ids
}

func countRows(t *testing.T, db *sql.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// readTailEntries decodes the tail's rows of db.
func readTailEntries(t *testing.T, db *sql.DB) []tailEntry {
	t.Helper()
	var es []tailEntry
	if err := readTail(context.Background(), db, func(e tailEntry) { es = append(es, e) }); err != nil {
		t.Fatal(err)
	}
	return es
}

// Entries of many tables, interleaved, with a small tail: the folds move
// runs into events while the tail keeps the rest, Events reads every log
// whole throughout, the tail holds about its limit, and Close leaves
// every entry in events and none in the tail.
func TestTailFoldsKeepTheLog(t *testing.T) {
	const limit, rounds = 64, 60
	ids := tableIDs(12)
	st, path := openWith(t, SQLiteOptions{TailLimit: limit})
	db := rawDB(t, path)
	for seq := 0; seq < rounds; seq++ {
		appendRound(t, st, ids, seq)
		if seq%7 == 0 {
			for _, id := range ids {
				checkEvents(t, st, id, seq+1)
			}
		}
	}
	// Folds run after a commit that leaves more than the limit (the last
	// ones may still run): wait for the tail to hold its limit at most and
	// the writer to agree with the database.
	var s Stats
	var inTail []tailEntry
	waitFor(t, "the folds to bring the tail to its limit", 5*time.Second, func() bool {
		s = st.Stats()
		inTail = readTailEntries(t, db)
		return s.TailEntries <= limit && int64(len(inTail)) == s.TailEntries && int64(countRows(t, db, "events")) == s.Folded
	})
	if s.Folds == 0 || s.Folded == 0 || s.FoldErrors != 0 || s.TailLimit != limit {
		t.Errorf("after %d entries with a tail of %d: %+v", rounds*len(ids), limit, s)
	}
	// Every entry is in events (folded once) or waits in the tail.
	waiting := 0
	for _, e := range inTail {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM events WHERE table_id = ? AND seq = ?`, e.table, e.seq).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if e.e != logEntry(e.table, e.seq) {
			t.Errorf("the tail has %+v for entry %d of %s", e.e, e.seq, e.table)
		}
		waiting += 1 - n
	}
	if n := countRows(t, db, "events"); n+waiting != rounds*len(ids) {
		t.Errorf("events has %d rows and %d wait in the tail: want %d in all", n, waiting, rounds*len(ids))
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if n, m := countRows(t, db, "events"), countRows(t, db, "event_tail"); n != rounds*len(ids) || m != 0 {
		t.Errorf("after Close: events %d rows, event_tail %d; want %d and 0", n, m, rounds*len(ids))
	}
	st2, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	for _, id := range ids {
		checkEvents(t, st2, id, rounds)
	}
}

// What a crash leaves in the tail (rows not folded, and rows a fold has
// put in events already) is readable by a read-only store (`cardroom
// doctor` on a live room) and goes into events, once, at the next open.
func TestTailAfterACrash(t *testing.T) {
	ids := tableIDs(3)
	st, path := openWith(t, SQLiteOptions{})
	for seq := 0; seq < 4; seq++ {
		appendRound(t, st, ids, seq)
	}
	st.Close()
	// The crash: entries 4 and 5 of t00 and t01 only in the tail, and 2
	// and 3 of t02 in both tables (folded, not yet deleted).
	db := rawDB(t, path)
	var row []byte
	for _, tb := range []string{"t00", "t01"} {
		for seq := 4; seq < 6; seq++ {
			row = appendTailEntry(row, tb, seq, logEntry(tb, seq))
		}
	}
	mustExec(t, db, `INSERT INTO event_tail(id, entries) VALUES (7, ?)`, row)
	row = nil
	for seq := 2; seq < 4; seq++ {
		row = appendTailEntry(row, "t02", seq, logEntry("t02", seq))
	}
	mustExec(t, db, `INSERT INTO event_tail(id, entries) VALUES (5, ?)`, row)
	db.Close()
	want := map[string]int{"t00": 6, "t01": 6, "t02": 4}
	ctx := context.Background()

	ro, err := OpenSQLiteReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	for tb, n := range want {
		checkEvents(t, ro, tb, n)
	}
	ro.Close()

	st, err = OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n := countRows(t, rawDB(t, path), "event_tail"); n != 0 {
		t.Errorf("after the open, the tail has %d rows", n)
	}
	for tb, n := range want {
		checkEvents(t, st, tb, n)
	}
	// The writer knows the logs' ends from events: a seq taken or skipped
	// is a conflict, the next one is not.
	for _, c := range []struct {
		seq  int
		want error
	}{{5, ErrConflict}, {7, ErrConflict}, {6, nil}} {
		if err := st.Append(ctx, "t00", c.seq, logEntry("t00", c.seq)); !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("append of seq %d to a log of 6: %v, want %v", c.seq, err, c.want)
		}
	}
}

// Readers during folds: every Events is a whole prefix of its log (the
// tail's run read first, then events; tail.go says why that is enough).
func TestTailEventsDuringFolds(t *testing.T) {
	ids := tableIDs(8)
	st, _ := openWith(t, SQLiteOptions{TailLimit: minTailLimit})
	ctx := context.Background()
	var stop atomic.Bool
	var reads atomic.Int64
	var wg sync.WaitGroup
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				id := ids[i%len(ids)]
				ev, err := st.Events(ctx, id)
				if err != nil {
					t.Error(err)
					return
				}
				checkLog(t, id, ev, -1)
				reads.Add(1)
			}
		}()
	}
	const rounds = 150
	for seq := 0; seq < rounds; seq++ {
		appendRound(t, st, ids, seq)
	}
	stop.Store(true)
	wg.Wait()
	if s := st.Stats(); s.Folds < 10 || reads.Load() == 0 {
		t.Errorf("%d folds and %d reads: too few to test their overlap", s.Folds, reads.Load())
	}
	for _, id := range ids {
		checkEvents(t, st, id, rounds)
	}
}

// The tail is bounded: when folds fail (here a trigger refuses inserts
// into events), the writer refuses appends once the tail holds twice its
// limit, with an error that says why, and Stats counts the failures; once
// folds work again the tail drains and appends are accepted.
func TestTailBoundedWhenFoldsFail(t *testing.T) {
	st, path := openWith(t, SQLiteOptions{TailLimit: minTailLimit, BusyTimeout: time.Second})
	ctx := context.Background()
	db := rawDB(t, path)
	mustExec(t, db, `CREATE TRIGGER no_fold BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'folds refused'); END`)
	seq := 0
	var err error
	for ; seq < 10*minTailLimit; seq++ {
		if err = st.Append(ctx, "t", seq, logEntry("t", seq)); err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), "tail is full") || !strings.Contains(err.Error(), "folds refused") {
		t.Fatalf("appends with failing folds: %d accepted, then %v; want a full tail's error", seq, err)
	}
	if seq != 2*minTailLimit {
		t.Errorf("%d entries accepted with failing folds, want %d (twice the limit)", seq, 2*minTailLimit)
	}
	s := st.Stats()
	if s.FoldErrors == 0 || !strings.Contains(s.LastFoldError, "folds refused") || s.TailEntries != int64(seq) {
		t.Errorf("stats %+v", s)
	}
	checkEvents(t, st, "t", seq)

	mustExec(t, db, `DROP TRIGGER no_fold`)
	db.Close()
	// The refused append changed nothing: it is the next one still. The
	// first commits past the limit fold again.
	for end := seq + 4*minTailLimit; seq < end; seq++ {
		if err := st.Append(ctx, "t", seq, logEntry("t", seq)); err != nil {
			t.Fatalf("append %d once folds work: %v", seq, err)
		}
	}
	if s := st.Stats(); s.TailEntries > 2*minTailLimit {
		t.Errorf("the tail did not drain: %+v", s)
	}
	checkEvents(t, st, "t", seq)
}

func TestTailLimitRange(t *testing.T) {
	for _, n := range []int{-1, minTailLimit - 1, maxTailLimit + 1} {
		if _, err := (SQLiteOptions{TailLimit: n}).withDefaults(); err == nil || !strings.Contains(err.Error(), "tail limit") {
			t.Errorf("tail limit %d: %v, want an error", n, err)
		}
	}
	if o, err := (SQLiteOptions{}).withDefaults(); err != nil || o.TailLimit != DefaultTailLimit {
		t.Errorf("default: %d, %v", o.TailLimit, err)
	}
}

// A tail row the store cannot decode stops the open with an error that
// names it, and changes nothing: its entries may be any tables'.
func TestTailDamagedRowStopsTheOpen(t *testing.T) {
	st, path := openWith(t, SQLiteOptions{})
	appendRound(t, st, tableIDs(2), 0)
	st.Close()
	db := rawDB(t, path)
	good := appendTailEntry(nil, "t00", 1, logEntry("t00", 1))
	bad := append(appendTailEntry(nil, "t01", 1, logEntry("t01", 1)), 0x05, 'x')
	mustExec(t, db, `INSERT INTO event_tail(id, entries) VALUES (1, ?), (2, ?)`, good, bad)
	db.Close()
	if st, err := OpenSQLite(path); err == nil || !strings.Contains(err.Error(), "row 2 is damaged") {
		if st != nil {
			st.Close()
		}
		t.Fatalf("open with a damaged tail row: %v", err)
	}
	db = rawDB(t, path)
	if n, m := countRows(t, db, "event_tail"), countRows(t, db, "events"); n != 2 || m != 2 {
		t.Errorf("after the refused open: %d tail rows, %d events; want 2 and 2", n, m)
	}
}

// The tail's rows decode to what was encoded, and a damaged row is an
// error, never a panic (the fuzz target below tries more).
func TestTailRowCodec(t *testing.T) {
	in := []tailEntry{
		{"t_1", 0, record.Entry{Seat: game.Spectator, Chance: true, Text: "deal 2S 3S"}},
		{"t_2", 1<<31 - 1, record.Entry{Seat: maxSeat, Text: ""}},
		{"", 7, record.Entry{Seat: 0, Text: strings.Repeat("é", 300)}},
	}
	var row []byte
	for _, e := range in {
		row = appendTailEntry(row, e.table, e.seq, e.e)
	}
	var out []tailEntry
	if err := decodeTailRow(row, func(e tailEntry) { out = append(out, e) }); err != nil || !slices.Equal(in, out) {
		t.Fatalf("decoded %+v, %v; want %+v", out, err, in)
	}
	for name, b := range map[string][]byte{
		"empty":        nil,
		"cut":          row[:len(row)-1],
		"long length":  {0x7f, 'a'},
		"bad seat":     appendTailEntry(nil, "t", 0, record.Entry{Seat: maxSeat + 1}),
		"bad chance":   {1, 't', 0, 0, 2, 0},
		"seq too long": append([]byte{1, 't'}, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0),
	} {
		if err := decodeTailRow(b, func(tailEntry) {}); err == nil {
			t.Errorf("%s: decoded without an error", name)
		}
	}
}

func FuzzTailRow(f *testing.F) {
	f.Add(appendTailEntry(nil, "t", 3, record.Entry{Seat: 1, Text: "play 2S"}))
	f.Add([]byte{1, 't', 0, 0, 1, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var es []tailEntry
		if err := decodeTailRow(b, func(e tailEntry) { es = append(es, e) }); err != nil {
			return
		}
		// What decodes is in range, and re-encodes to the same entries (the
		// bytes may differ: a varint may be written longer than it needs).
		var again []byte
		for _, e := range es {
			if e.seq < 0 || e.e.Seat < game.Spectator || e.e.Seat > maxSeat {
				t.Fatalf("decoded an entry out of range: %+v", e)
			}
			again = appendTailEntry(again, e.table, e.seq, e.e)
		}
		var es2 []tailEntry
		if err := decodeTailRow(again, func(e tailEntry) { es2 = append(es2, e) }); err != nil || !slices.Equal(es, es2) {
			t.Fatalf("%x decodes to %+v, which re-encodes to %x, which decodes to %+v, %v", b, es, again, es2, err)
		}
	})
}

// A crash image: the database and its WAL copied while the store is open
// and has folded part of the tail (as a kill -9 leaves them). The copy
// opens with every acknowledged entry, each once.
func TestTailCrashImage(t *testing.T) {
	ids := tableIDs(10)
	// No background checkpoint: the two files are copied one after the
	// other, and a checkpoint between them is not what a crash leaves.
	st, path := openWith(t, SQLiteOptions{TailLimit: minTailLimit, CheckpointEvery: time.Hour})
	const rounds = 23
	for seq := 0; seq < rounds; seq++ {
		appendRound(t, st, ids, seq)
	}
	if s := st.Stats(); s.Folds == 0 || s.TailEntries == 0 {
		t.Fatalf("want folds done and entries waiting: %+v", s)
	}
	// Copy between two appends: the writer is idle (its last fold may
	// still run; a copy taken mid-transaction is a crash image too, and
	// SQLite ignores the uncommitted frames).
	dir := t.TempDir()
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "cardroom.db"+suffix), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cp, err := OpenSQLite(filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	for _, id := range ids {
		checkEvents(t, cp, id, rounds)
	}
	if n := countRows(t, rawDB(t, filepath.Join(dir, "cardroom.db")), "events"); n != rounds*len(ids) {
		t.Errorf("the copy's events has %d rows after the open, want %d", n, rounds*len(ids))
	}
}

// A batch whose lookup of a table fails forgets what it admitted before:
// the same entries are admitted again, not taken for conflicts.
func TestTailAdmitAfterAFailedLookup(t *testing.T) {
	tl := newTail(DefaultTailLimit)
	batch := takenBatch(
		&appendReq{table: "a", seq: 0},
		&appendReq{table: "b", seq: 0},
	)
	fail := func(table string) (int, error) {
		if table == "b" {
			return 0, errors.New("disk on fire")
		}
		return 0, nil
	}
	ok, _, err := tl.admit(batch, fail)
	if err == nil || len(ok) != 1 {
		t.Fatalf("admit with a failing lookup: %d admitted, %v", len(ok), err)
	}
	tl.committed(ok, false)
	ok, conflicts, err := tl.admit(batch, func(string) (int, error) { return 0, nil })
	if err != nil || len(ok) != 2 || len(conflicts) != 0 {
		t.Errorf("admit again: %d admitted, %d conflicts, %v; want 2, 0", len(ok), len(conflicts), err)
	}
	tl.committed(ok, true)
	if first, run := tl.run("a"); first != 0 || len(run) != 1 {
		t.Errorf("table a's run from %d, %d entries; want 0, 1", first, len(run))
	}
}

// A read-only store decodes the tail once for the reads of roTailFor (a
// doctor reads every table's log), then again: a row added meanwhile is
// seen once that time has passed.
func TestTailReadOnlyKeepsItsDecodingAWhile(t *testing.T) {
	st, path := openWith(t, SQLiteOptions{})
	appendRound(t, st, []string{"t00"}, 0)
	st.Close()
	ro, err := OpenSQLiteReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ctx := context.Background()
	read := func() int {
		t.Helper()
		ev, err := ro.Events(ctx, "t00")
		if err != nil {
			t.Fatal(err)
		}
		checkLog(t, "t00", ev, -1)
		return len(ev)
	}
	if n := read(); n != 1 {
		t.Fatalf("%d entries, want 1", n)
	}
	start := time.Now()
	mustExec(t, rawDB(t, path), `INSERT INTO event_tail(id, entries) VALUES (1, ?)`, appendTailEntry(nil, "t00", 1, logEntry("t00", 1)))
	if n := read(); n != 1 && time.Since(start) < roTailFor {
		t.Errorf("%d entries right after the row was added: the decoded tail was not kept", n)
	}
	time.Sleep(roTailFor + 10*time.Millisecond)
	if n := read(); n != 2 {
		t.Errorf("%d entries after %v, want 2", n, roTailFor)
	}
}
