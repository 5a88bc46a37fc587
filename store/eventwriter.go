package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"
)

// eventWriter runs the writer goroutine's transactions on the writer
// connection through the driver itself ((*sql.Conn).Raw), with every
// statement prepared once: BEGIN IMMEDIATE, COMMIT, ROLLBACK and inserts
// of 1 to maxInsertRows rows in one statement. Through database/sql each
// BEGIN and COMMIT was parsed anew by SQLite (the driver prepares them on
// every call), and each row was one statement with database/sql's
// argument conversion around it.
//
// The statements belong to one driver connection: when database/sql
// gives the writer another one (the first was closed after an error), the
// old statements are dropped and new ones prepared. Only the writer
// goroutine (and Close, after it) uses an eventWriter.
type eventWriter struct {
	conn                    any // the driver connection the statements were prepared on
	begin, commit, rollback driver.Stmt
	inserts                 [maxInsertRows + 1]driver.Stmt // inserts[k] inserts k rows; nil until needed
	args                    []driver.NamedValue
}

// maxInsertRows is the most rows one insert statement carries; a larger
// batch takes several.
const maxInsertRows = 32

// insert commits batch in one transaction on dc, the writer's driver
// connection. On an error nothing of the batch is committed.
func (w *eventWriter) insert(dc any, batch []*appendReq) error {
	if dc != w.conn {
		// Statements of a connection database/sql has closed are gone with
		// it: finalizing them would use the closed connection.
		*w = eventWriter{conn: dc, args: w.args}
	}
	if err := w.exec(&w.begin, "BEGIN IMMEDIATE", nil); err != nil {
		return err
	}
	for rest := batch; len(rest) > 0; {
		k := min(len(rest), maxInsertRows)
		args := w.args[:0]
		for i, r := range rest[:k] {
			o := 5 * i
			args = append(args,
				driver.NamedValue{Ordinal: o + 1, Value: r.table},
				driver.NamedValue{Ordinal: o + 2, Value: int64(r.seq)},
				driver.NamedValue{Ordinal: o + 3, Value: int64(r.e.Seat)},
				driver.NamedValue{Ordinal: o + 4, Value: int64(b2i(r.e.Chance))},
				driver.NamedValue{Ordinal: o + 5, Value: r.e.Text})
		}
		w.args = args
		err := w.exec(&w.inserts[k], insertRows(k), args)
		clear(args) // let the strings go
		if err != nil {
			w.abort()
			return err
		}
		rest = rest[k:]
	}
	if err := w.exec(&w.commit, "COMMIT", nil); err != nil {
		// A failed COMMIT may leave the transaction open (SQLITE_BUSY):
		// roll it back, as the driver's Tx.Commit does.
		w.abort()
		return err
	}
	return nil
}

// abort rolls the open transaction back. Its own error is of no use: the
// caller reports the error that made it roll back, and a ROLLBACK with no
// transaction open (SQLite rolled it back itself) fails harmlessly.
func (w *eventWriter) abort() { w.exec(&w.rollback, "ROLLBACK", nil) }

// exec runs the statement *st, preparing it from query first if needed.
func (w *eventWriter) exec(st *driver.Stmt, query string, args []driver.NamedValue) error {
	if *st == nil {
		p, ok := w.conn.(driver.ConnPrepareContext)
		if !ok {
			return fmt.Errorf("sqlite driver: %T cannot prepare with a context", w.conn)
		}
		ps, err := p.PrepareContext(context.Background(), query)
		if err != nil {
			return err
		}
		if _, ok := ps.(driver.StmtExecContext); !ok {
			ps.Close()
			return fmt.Errorf("sqlite driver: %T cannot execute with a context", ps)
		}
		*st = ps
	}
	_, err := (*st).(driver.StmtExecContext).ExecContext(context.Background(), args)
	return err
}

// insertRows is the insert of k rows. OR ROLLBACK: a taken seq rolls
// the whole transaction back (the caller then retries the batch entry by
// entry, see commit) instead of undoing just the statement, so SQLite
// keeps no statement journal, which copied every page the statement
// changed (and spilled to a temporary file past 64 KiB).
func insertRows(k int) string {
	return "INSERT OR ROLLBACK" + strings.TrimPrefix(insertEvent, "INSERT") + strings.Repeat(", (?, ?, ?, ?, ?)", k-1)
}

// close finalizes the statements if they belong to dc, the writer's
// driver connection (Close, before the connection closes).
func (w *eventWriter) close(dc any) {
	if dc != w.conn {
		return
	}
	for _, st := range append([]driver.Stmt{w.begin, w.commit, w.rollback}, w.inserts[:]...) {
		if st != nil {
			st.Close()
		}
	}
	*w = eventWriter{}
}
