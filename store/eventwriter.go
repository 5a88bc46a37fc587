package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"strings"
)

// eventWriter runs the writer goroutine's statements on the writer
// connection through the driver itself ((*sql.Conn).Raw), each prepared
// once: BEGIN IMMEDIATE, COMMIT, ROLLBACK, the insert of a row into the
// log's tail (tail.go), a fold's inserts of 1 to maxInsertRows rows into
// events and its delete, and the lookup of a table's next seq. Through
// database/sql each BEGIN and COMMIT was parsed anew by SQLite (the driver
// prepares them on every call), and each row was one statement with
// database/sql's argument conversion around it.
//
// The statements belong to one driver connection: when database/sql
// gives the writer another one (the first was closed after an error), the
// old statements are dropped and new ones prepared. Only the writer
// goroutine (and Close, after it) uses an eventWriter.
type eventWriter struct {
	conn  any                    // the driver connection the statements were prepared on
	stmts map[string]driver.Stmt // by query
	args  []driver.NamedValue
	row   []byte // a tail row being encoded
}

// maxInsertRows is the most rows one insert statement carries; a larger
// batch takes several.
const maxInsertRows = 32

// eventInserts[k] inserts k rows into events (folds), 1 to maxInsertRows.
var eventInserts [maxInsertRows + 1]string

func init() {
	for k := 1; k <= maxInsertRows; k++ {
		eventInserts[k] = insertRows(k)
	}
}

// insertRows is the insert of k rows. OR ROLLBACK: a failing row rolls
// the whole transaction back instead of undoing just the statement, so
// SQLite keeps no statement journal, which copied every page the
// statement changed (and spilled to a temporary file past 64 KiB).
func insertRows(k int) string {
	return "INSERT OR ROLLBACK" + strings.TrimPrefix(insertEvent, "INSERT") + strings.Repeat(", (?, ?, ?, ?, ?)", k-1)
}

// bind makes dc, the writer's driver connection, the one the statements
// are prepared on.
func (w *eventWriter) bind(dc any) {
	if dc != w.conn {
		// Statements of a connection database/sql has closed are gone with
		// it: finalizing them would use the closed connection.
		*w = eventWriter{conn: dc, stmts: map[string]driver.Stmt{}, args: w.args, row: w.row}
	}
}

// inTx runs f in a transaction (BEGIN IMMEDIATE), and commits it unless
// f fails; on any error nothing of it is committed. A failed COMMIT may
// leave the transaction open (SQLITE_BUSY): it is rolled back, as the
// driver's Tx.Commit does. The ROLLBACK's own error is of no use: the
// caller reports the error that made it roll back, and a ROLLBACK with no
// transaction open (SQLite rolled it back itself) fails harmlessly.
func (w *eventWriter) inTx(f func() error) error {
	if err := w.exec("BEGIN IMMEDIATE", nil); err != nil {
		return err
	}
	err := f()
	if err == nil {
		err = w.exec("COMMIT", nil)
	}
	if err != nil {
		w.exec("ROLLBACK", nil)
	}
	return err
}

// insertTail inserts batch into event_tail as row id, inside the
// caller's transaction.
func (w *eventWriter) insertTail(batch []*appendReq, id int64) error {
	b := w.row[:0]
	for _, r := range batch {
		b = appendTailEntry(b, r.table, r.seq, r.e)
	}
	w.row = b
	return w.exec(`INSERT INTO event_tail(id, entries) VALUES (?, ?)`, []driver.NamedValue{{Ordinal: 1, Value: id}, {Ordinal: 2, Value: b}})
}

// insertEvents inserts the entries of tables (each from its first seq)
// into events, inside the caller's transaction.
func (w *eventWriter) insertEvents(tables []foldRun) error {
	args, k := w.args[:0], 0
	flush := func() error {
		if k == 0 {
			return nil
		}
		err := w.execRows(eventInserts[k], args)
		args, k = w.args[:0], 0
		return err
	}
	for _, f := range tables {
		name := driver.Value(f.t.name) // boxed once for the run's rows
		for i, e := range f.rows {
			o := 5 * k
			args = append(args,
				driver.NamedValue{Ordinal: o + 1, Value: name},
				driver.NamedValue{Ordinal: o + 2, Value: int64(f.first + i)},
				driver.NamedValue{Ordinal: o + 3, Value: int64(e.Seat)},
				driver.NamedValue{Ordinal: o + 4, Value: int64(b2i(e.Chance))},
				driver.NamedValue{Ordinal: o + 5, Value: e.Text})
			if k++; k == maxInsertRows {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// execRows runs an insert with args, then lets go of the args' strings.
func (w *eventWriter) execRows(query string, args []driver.NamedValue) error {
	w.args = args
	err := w.exec(query, args)
	clear(args)
	return err
}

// nextSeq reads the number of entries events holds for table: the next
// seq of a table none of whose entries wait in the tail.
func (w *eventWriter) nextSeq(table string) (int, error) {
	st, err := w.prepare(`SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE table_id = ?`)
	if err != nil {
		return 0, err
	}
	rows, err := st.(driver.StmtQueryContext).QueryContext(context.Background(), []driver.NamedValue{{Ordinal: 1, Value: table}})
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	v := make([]driver.Value, 1)
	if err := rows.Next(v); err != nil {
		if err == io.EOF {
			return 0, fmt.Errorf("table %s: no answer for its next seq", table)
		}
		return 0, err
	}
	n, ok := v[0].(int64)
	if !ok {
		return 0, fmt.Errorf("table %s: its next seq reads %T", table, v[0])
	}
	return int(n), nil
}

// exec runs the statement for query, preparing it first if needed.
func (w *eventWriter) exec(query string, args []driver.NamedValue) error {
	st, err := w.prepare(query)
	if err != nil {
		return err
	}
	_, err = st.(driver.StmtExecContext).ExecContext(context.Background(), args)
	return err
}

// prepare returns the statement for query, prepared once.
func (w *eventWriter) prepare(query string) (driver.Stmt, error) {
	if st, ok := w.stmts[query]; ok {
		return st, nil
	}
	p, ok := w.conn.(driver.ConnPrepareContext)
	if !ok {
		return nil, fmt.Errorf("sqlite driver: %T cannot prepare with a context", w.conn)
	}
	ps, err := p.PrepareContext(context.Background(), query)
	if err != nil {
		return nil, err
	}
	_, canExec := ps.(driver.StmtExecContext)
	_, canQuery := ps.(driver.StmtQueryContext)
	if !canExec || !canQuery {
		ps.Close()
		return nil, fmt.Errorf("sqlite driver: %T cannot execute or query with a context", ps)
	}
	w.stmts[query] = ps
	return ps, nil
}

// close finalizes the statements if they belong to dc, the writer's
// driver connection (Close, before the connection closes).
func (w *eventWriter) close(dc any) {
	if dc != w.conn {
		return
	}
	for _, st := range w.stmts {
		st.Close()
	}
	*w = eventWriter{}
}
