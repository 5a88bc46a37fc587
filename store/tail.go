package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/game"
	"cardroom/record"
)

// The event log's tail.
//
// events is clustered by (table_id, seq), so a table's log is a few
// neighbouring pages to read. But the writer's commits carry entries of
// many tables, one or two each, and every one of them dirtied a page of
// its own: the WAL grew by a page an entry, and at 2,000 tables a move's
// share of the writer was about 20 µs of CPU, most of it page writes and
// their checksums, then the checkpoints copying those pages back.
//
// So the writer commits each batch to event_tail as one row (its key is
// the writer's counter; the entries are encoded by appendTailEntry): a
// commit of a dozen entries writes a page or two at the tail's end, and
// SQLite handles one row, not a dozen. The entries that are in the tail
// and not yet in events wait in memory as well, a run per table, and the
// writer moves them into events in runs (a fold), in a transaction of its
// own between two commits, once the tail holds more entries than its
// limit: it takes the tables of the oldest entries, inserts each one's
// waiting run into events (the run's entries are neighbours there: a page
// or two a table), and deletes the tail's oldest rows whose entries are
// all folded (a few neighbouring pages). With a limit of 32,768 entries
// and 2,000 tables moving once a second, a table's run is about 16
// entries: a page write for 16 entries instead of 16.
//
// What the tail holds in memory is what the limit bounds: about Limit
// entries (about 100 bytes each with their table's share), and the
// writer refuses appends past twice the limit, when folds fail.
//
// Readers: Events reads a table's run from memory first, then events.
// Everything before the run is in events by then (a fold commits before
// it empties a run), and a fold after the copy only moves entries the copy
// has into events: the union is a prefix of the log, as a read at the
// moment of the copy.
//
// Conflicts: the writer knows each table's next seq (its run's end, or
// events' count for a table with no run), so an append of a seq that is
// not next fails with ErrConflict on its own, before the transaction; the
// tail itself has no index to check.
//
// A crash loses nothing committed: at open, whatever the tail holds is
// folded into events (INSERT OR IGNORE: a fold leaves rows behind whose
// entries events has already), and Close folds everything, so a closed
// database's events is the whole log. A read-only store (`cardroom
// doctor` on a running room) reads both tables.
type tail struct {
	limit  int
	budget int // a fold's entries (foldBudget)

	// mu guards tables and the runs (rows, first) for readers; the writer
	// goroutine changes them under mu and reads them without it.
	mu     sync.Mutex
	tables map[string]*tailTable

	// The writer's own: the tail's entries, oldest first (fifo[head:]), and
	// the id the next row gets. The entries of a row are neighbours.
	fifo   []tailRef
	head   int // the oldest entry
	front  int // the oldest entry not folded: fifo[head:front] are folded
	nextID int64
	picks  int64 // folds attempted: the mark of the runs a fold takes

	entries             atomic.Int64 // entries in the tail (fifo[head:])
	folds, folded, errs atomic.Int64
	lastErr             atomic.Value // string
	accepted, conflicts []*appendReq // the writer's scratch
	foldRuns            []foldRun
	touched             []*tailTable
}

// tailTable is a table with rows in the tail (or one the writer has just
// looked up).
type tailTable struct {
	name string
	next int            // the seq of the table's next entry
	rows []record.Entry // the run: the entries not in events, seqs next-len(rows) to next-1
	refs int            // the tail's rows of this table (folded or not)
	pend int            // the writer's: entries of the batch being committed
	mark int64          // the writer's: the last fold (tail.picks) that took this table's run
}

// tailRef is an entry of the tail: entry seq of t, in row id.
type tailRef struct {
	t   *tailTable
	seq int
	id  int64
}

// foldRun is a table's run taken by a fold: its entries from seq first.
type foldRun struct {
	t     *tailTable
	first int
	rows  []record.Entry
}

// SQLiteOptions.TailLimit's default and range.
const (
	DefaultTailLimit = 32768
	minTailLimit     = 16
	maxTailLimit     = 1 << 20
)

// foldBudget: a fold takes runs until they hold this many entries (a
// few milliseconds of the writer at most), or a sixteenth of the limit if
// less; foldAllBudget at close, when no append waits.
const (
	foldBudget    = 512
	foldAllBudget = 8192
)

func newTail(limit int) *tail {
	return &tail{limit: limit, budget: min(foldBudget, limit/16), tables: map[string]*tailTable{}, nextID: 1}
}

// run returns a copy of table's run and the seq of its first entry.
func (t *tail) run(table string) (first int, rows []record.Entry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tt := t.tables[table]
	if tt == nil || len(tt.rows) == 0 {
		return 0, nil
	}
	return tt.next - len(tt.rows), slices.Clone(tt.rows)
}

// admit sorts a batch into the entries that are next in their tables'
// logs and the conflicts, looking up with next the tables it does not
// know yet. The slices are the tail's scratch, valid until the next
// admit. After an error, ok holds the entries admitted before it (the
// caller's committed(ok, false) forgets them).
func (t *tail) admit(batch []*appendReq, next func(table string) (int, error)) (ok, conflicts []*appendReq, err error) {
	ok, conflicts = t.accepted[:0], t.conflicts[:0]
	for _, r := range batch {
		tt := t.tables[r.table]
		if tt == nil {
			n, err := next(r.table)
			if err != nil {
				t.accepted, t.conflicts = ok, conflicts
				return ok, conflicts, err
			}
			tt = &tailTable{name: r.table, next: n}
			t.mu.Lock()
			t.tables[r.table] = tt
			t.mu.Unlock()
			t.touched = append(t.touched, tt)
		}
		if r.seq != tt.next+tt.pend {
			conflicts = append(conflicts, r)
			continue
		}
		tt.pend++
		ok = append(ok, r)
	}
	t.accepted, t.conflicts = ok, conflicts
	return ok, conflicts, nil
}

// committed records the entries a commit put in the tail (row nextID),
// or, when the commit failed (committed false), forgets the batch.
func (t *tail) committed(ok []*appendReq, committed bool) {
	t.mu.Lock()
	for _, r := range ok {
		tt := t.tables[r.table]
		tt.pend = 0
		if committed {
			e := r.e
			e.Line = 0
			tt.rows = append(tt.rows, e)
			tt.next++
			tt.refs++
			t.fifo = append(t.fifo, tailRef{t: tt, seq: r.seq, id: t.nextID})
		}
	}
	if committed && len(ok) > 0 {
		t.nextID++
		t.entries.Add(int64(len(ok)))
	}
	// A table looked up for this batch that has no row in the tail has
	// nothing to keep it (a conflict, or a failed commit).
	for _, tt := range t.touched {
		if tt.refs == 0 {
			delete(t.tables, tt.name)
		}
	}
	t.mu.Unlock()
	clear(t.touched)
	t.touched = t.touched[:0]
}

// full reports a tail that holds twice its limit: folds fail, and the
// writer refuses appends rather than hold more.
func (t *tail) full() error {
	if n := t.entries.Load(); n >= 2*int64(t.limit) {
		msg, _ := t.lastErr.Load().(string)
		return fmt.Errorf("the event log's tail is full (%d entries; folding them into the log fails: %s)", n, msg)
	}
	return nil
}

// pick takes the runs of the tables of the tail's oldest rows not yet
// folded until they hold budget entries, and returns them sorted by table
// (their order in events) with the index of the oldest row that stays
// unfolded: the tail's rows before it are folded once the runs are.
func (t *tail) pick(budget int) (runs []foldRun, front int) {
	t.picks++
	mark := t.picks
	runs, n := t.foldRuns[:0], 0
	for front = t.front; front < len(t.fifo); front++ {
		ref := t.fifo[front]
		tt := ref.t
		if ref.seq < tt.next-len(tt.rows) || tt.mark == mark {
			continue // folded already, or its run is taken
		}
		if n >= budget {
			break
		}
		tt.mark = mark
		runs = append(runs, foldRun{t: tt, first: tt.next - len(tt.rows), rows: tt.rows})
		n += len(tt.rows)
	}
	slices.SortFunc(runs, func(a, b foldRun) int { return strings.Compare(a.t.name, b.t.name) })
	t.foldRuns = runs
	return runs, front
}

// rowStart is the index of the first entry of the row of entry i (i
// itself at the end), rowEnd the index after the last.
func (t *tail) rowStart(i int) int {
	for i < len(t.fifo) && i > t.head && t.fifo[i-1].id == t.fifo[i].id {
		i--
	}
	return i
}

func (t *tail) rowEnd(i int) int {
	id := t.fifo[i].id
	for i < len(t.fifo) && t.fifo[i].id == id {
		i++
	}
	return i
}

// rowID is the id of the row of entry i (the next row's at the end).
func (t *tail) rowID(i int) int64 {
	if i == len(t.fifo) {
		return t.nextID
	}
	return t.fifo[i].id
}

// done records a fold's commit: the runs are in events, every row before
// front is folded, and the tail's rows before cut are gone.
func (t *tail) done(runs []foldRun, front, cut int) {
	t.mu.Lock()
	n := 0
	for _, f := range runs {
		n += len(f.rows)
		f.t.rows = f.t.rows[:0]
	}
	for i := t.head; i < cut; i++ {
		tt := t.fifo[i].t
		if tt.refs--; tt.refs == 0 && len(tt.rows) == 0 {
			delete(t.tables, tt.name)
		}
	}
	t.mu.Unlock()
	clear(t.fifo[t.head:cut])
	t.entries.Add(-int64(cut - t.head))
	t.head, t.front = cut, front
	if t.head == len(t.fifo) {
		t.fifo, t.head, t.front = t.fifo[:0], 0, 0
	} else if t.head > len(t.fifo)/2 && t.head >= 1024 {
		k := copy(t.fifo, t.fifo[t.head:])
		clear(t.fifo[k:])
		t.fifo, t.front, t.head = t.fifo[:k], t.front-t.head, 0
	}
	clear(t.foldRuns)
	t.folds.Add(1)
	t.folded.Add(int64(n))
}

// fold moves runs of the tail's oldest entries into events and deletes
// the tail's oldest rows whose entries are all folded, in one transaction:
// runs of at most budget entries (a run is never split, so one longer run
// may pass it), and rows of about 2×budget entries at most. Runs folded
// early leave their rows behind the oldest entry still waiting; once
// those are many, a fold only deletes: a fold's transaction stays small
// (a fold that deleted every row it could wrote 6 MiB of WAL at once). On
// an error nothing changed. Each fold moves a run or deletes a row.
func (s *SQLite) fold(budget int) error {
	t := s.tail
	var runs []foldRun
	front := t.front
	if t.rowStart(front)-t.head < budget {
		runs, front = t.pick(budget)
	}
	cut := t.rowStart(front) // the rows before it are folded
	if cut-t.head > 2*budget {
		if cut = t.rowStart(t.head + 2*budget); cut == t.head {
			cut = t.rowEnd(t.head) // one row of more entries: all of it
		}
	}
	if cut == t.head && len(runs) == 0 {
		return nil
	}
	err := s.raw(func() error {
		return s.ew.inTx(func() error {
			if err := s.ew.insertEvents(runs); err != nil {
				return err
			}
			return s.ew.exec(`DELETE FROM event_tail WHERE id < ?`, []driver.NamedValue{{Ordinal: 1, Value: t.rowID(cut)}})
		})
	})
	if err != nil {
		t.errs.Add(1)
		t.lastErr.Store(err.Error())
		clear(t.foldRuns)
		return err
	}
	s.wal.writes.Add(1)
	t.done(runs, front, cut)
	return nil
}

// foldOver folds until the tail holds its limit at most, after a commit
// (each fold makes progress: it moves a run or deletes a row), watching
// the WAL after each as after a commit.
func (s *SQLite) foldOver() {
	for s.tail.entries.Load() > int64(s.tail.limit) {
		if s.fold(s.tail.budget) != nil {
			return
		}
		s.watchWAL()
	}
}

// foldAll folds the whole tail (Close).
func (s *SQLite) foldAll() error {
	for s.tail.entries.Load() > 0 {
		if err := s.fold(foldAllBudget); err != nil {
			return err
		}
	}
	return nil
}

// openTail folds what a previous run left in the tail (after a crash)
// into events, before the writer starts. A row it cannot decode stops the
// open and changes nothing: its entries may be any tables'.
func (s *SQLite) openTail(ctx context.Context) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var entries []tailEntry
	if err := readTail(ctx, tx, func(e tailEntry) { entries = append(entries, e) }); err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	slices.SortFunc(entries, func(a, b tailEntry) int {
		if c := strings.Compare(a.table, b.table); c != 0 {
			return c
		}
		return a.seq - b.seq
	})
	ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO events(table_id, seq, seat, chance, text) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, e := range entries {
		if _, err := ins.ExecContext(ctx, e.table, e.seq, int(e.e.Seat), b2i(e.e.Chance), e.e.Text); err != nil {
			return fmt.Errorf("folding the event log's tail: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM event_tail`); err != nil {
		return fmt.Errorf("emptying the event log's tail: %w", err)
	}
	return tx.Commit()
}

// readTailOf reads table's entries from the tail's rows (a read-only
// store's Events): the seq of the first one that events may lack and the
// entries from there, in order. A fold leaves entries in the tail that
// events has too; the caller keeps what events lacks.
//
// The tail is decoded whole, kept for roTailFor, and shared by the reads
// of that time: `cardroom doctor` reads every unfinished table's log, and
// decoding the tail for each took 12 s instead of 0.4 on a running room
// of 2,000 tables. A read of events after the tail's is still a prefix of
// the log (see tail): events only grows, by whole runs.
func (s *SQLite) readTailOf(ctx context.Context, table string) (first int, run []record.Entry, err error) {
	byTable, err := s.roTail.read(ctx, s.r)
	if err != nil {
		return 0, nil, err
	}
	es := byTable[table]
	if len(es) == 0 {
		return 0, nil, nil
	}
	first = es[0].seq
	for i, e := range es {
		if e.seq != first+i {
			return 0, nil, fmt.Errorf("the event log's tail: entry %d follows %d", e.seq, first+i-1)
		}
		run = append(run, e.e)
	}
	return first, run, nil
}

// roTailFor is how long a read-only store keeps the tail it decoded.
const roTailFor = time.Second

// roTail is a read-only store's decoded tail: each table's entries, in
// seq order.
type roTail struct {
	mu      sync.Mutex
	at      time.Time
	byTable map[string][]tailEntry
}

func (c *roTail) read(ctx context.Context, db *sql.DB) (map[string][]tailEntry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byTable != nil && time.Since(c.at) < roTailFor {
		return c.byTable, nil
	}
	at := time.Now()
	byTable := map[string][]tailEntry{}
	if err := readTail(ctx, db, func(e tailEntry) { byTable[e.table] = append(byTable[e.table], e) }); err != nil {
		return nil, err
	}
	for _, es := range byTable {
		slices.SortFunc(es, func(a, b tailEntry) int { return a.seq - b.seq })
	}
	c.byTable, c.at = byTable, at
	return byTable, nil
}

// tailEntry is an entry decoded from a tail's row.
type tailEntry struct {
	table string
	seq   int
	e     record.Entry
}

// readTail decodes every row of event_tail, oldest first, into f.
func readTail(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, f func(tailEntry)) error {
	rows, err := q.QueryContext(ctx, `SELECT id, entries FROM event_tail ORDER BY id`)
	if err != nil {
		return fmt.Errorf("the event log's tail: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return fmt.Errorf("the event log's tail: row unreadable: %w", err)
		}
		if err := decodeTailRow(b, f); err != nil {
			return fmt.Errorf("the event log's tail: row %d is damaged: %w", id, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("the event log's tail: %w", err)
	}
	return nil
}

// A tail row is its entries one after the other, each: the table id's
// length (uvarint) and bytes, the seq (uvarint), the seat (varint), the
// chance flag (a byte, 0 or 1), the text's length (uvarint) and bytes.
// It is the store's own format, never read by anything else.

// appendTailEntry appends one entry of a tail row.
func appendTailEntry(b []byte, table string, seq int, e record.Entry) []byte {
	b = binary.AppendUvarint(b, uint64(len(table)))
	b = append(b, table...)
	b = binary.AppendUvarint(b, uint64(seq))
	b = binary.AppendVarint(b, int64(e.Seat))
	b = append(b, byte(b2i(e.Chance)))
	b = binary.AppendUvarint(b, uint64(len(e.Text)))
	return append(b, e.Text...)
}

// decodeTailRow calls f with each entry of row b, and fails on anything
// appendTailEntry cannot have written: a length past the row's end, a
// seq or seat out of range, a chance flag other than 0 and 1, an empty
// row.
func decodeTailRow(b []byte, f func(tailEntry)) error {
	if len(b) == 0 {
		return errors.New("no entries")
	}
	bytes := func() ([]byte, error) {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, errors.New("a length past the row's end")
		}
		s := b[k : k+int(n)]
		b = b[k+int(n):]
		return s, nil
	}
	for len(b) > 0 {
		table, err := bytes()
		if err != nil {
			return err
		}
		seq, k := binary.Uvarint(b)
		if k <= 0 || seq > math.MaxInt32 {
			return fmt.Errorf("table %q: a bad seq", table)
		}
		b = b[k:]
		seat, k := binary.Varint(b)
		if k <= 0 || seat < int64(game.Spectator) || seat > maxSeat {
			return fmt.Errorf("table %q, entry %d: a bad seat", table, seq)
		}
		b = b[k:]
		if len(b) == 0 || b[0] > 1 {
			return fmt.Errorf("table %q, entry %d: a bad chance flag", table, seq)
		}
		chance := b[0] == 1
		b = b[1:]
		text, err := bytes()
		if err != nil {
			return fmt.Errorf("table %q, entry %d: %w", table, seq, err)
		}
		f(tailEntry{table: string(table), seq: int(seq), e: record.Entry{Seat: game.Seat(seat), Chance: chance, Text: string(text)}})
	}
	return nil
}
