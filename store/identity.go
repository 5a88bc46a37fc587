package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"
)

// ApplicationID is the value of PRAGMA application_id (bytes 68–71 of the
// file's header) in every Cardroom database: "CRM1". It is how a Cardroom
// tells its own file from another program's SQLite database at the same
// path.
const ApplicationID = 0x43524D31

// ErrNotCardroom is matched (errors.Is) by the error of an open that found
// something other than a Cardroom database at the path.
var ErrNotCardroom = errors.New("not a Cardroom database")

// NotCardroomError is why a file was refused. Cardroom never writes to such
// a file: it might be someone's data, and starting an empty room "on top"
// of a damaged one would hide the damage.
type NotCardroomError struct {
	Path   string
	Reason string
}

func (e *NotCardroomError) Error() string {
	return fmt.Sprintf("%s is not a Cardroom database: %s; move it away (or delete it) to start a new room", e.Path, e.Reason)
}

// Is makes errors.Is(err, ErrNotCardroom) true.
func (e *NotCardroomError) Is(target error) bool { return target == ErrNotCardroom }

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// checkFile looks at the file before SQLite does: it reports whether one
// exists, and refuses an empty file (SQLite would silently make it a new,
// empty database: a room that forgot everything) and a file that is not
// SQLite at all.
func checkFile(path string) (exists bool, err error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if fi.IsDir() {
		return true, &NotCardroomError{path, "it is a directory"}
	}
	if fi.Size() == 0 {
		return true, &NotCardroomError{path, "it is an empty file (0 bytes)"}
	}
	f, err := os.Open(path)
	if err != nil {
		return true, err
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, []byte(sqliteHeader)) {
		return true, &NotCardroomError{path, "it is not an SQLite database (no \"SQLite format 3\" header)"}
	}
	return true, nil
}

// ourTables are the tables Cardroom's migrations create.
var ourTables = map[string]bool{"schema_migrations": true, "sessions": true, "tables": true, "seats": true, "events": true, "event_tail": true, "accounts": true}

// checkIdentity opens an existing SQLite file read-only (so nothing of a
// foreign file changes, not even its journal mode) and decides whether it
// is Cardroom's:
//
//   - application_id is ApplicationID: ours;
//   - application_id is 0 and there are no tables: an empty database
//     (created and never written), ours to set up;
//   - application_id is 0, every table is one of ours and
//     schema_migrations records migration 1 (or is the only table): a
//     Cardroom database from before the id was set; migrate sets it;
//   - anything else is refused.
//
// It also refuses a Cardroom database that records migrations this binary
// does not know, since a newer version made it.
func checkIdentity(path string, busy time.Duration) error {
	db, err := sql.Open("sqlite", dsn(path, busy, url.Values{"mode": {"ro"}}))
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	unreadable := func(err error) error {
		return fmt.Errorf("%s: cannot read the database header and schema: %w (if this file is damaged beyond repair, move it away to start a new room)", path, err)
	}
	var id int64
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&id); err != nil {
		return unreadable(err)
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return unreadable(err)
	}
	var tables, foreign []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return unreadable(err)
		}
		tables = append(tables, n)
		if !ourTables[n] {
			foreign = append(foreign, n)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return unreadable(err)
	}
	var applied map[int]string
	hasMigrations := false
	for _, n := range tables {
		hasMigrations = hasMigrations || n == "schema_migrations"
	}
	if hasMigrations {
		if applied, err = appliedMigrations(ctx, db); err != nil {
			return unreadable(err)
		}
	}
	switch {
	case id == ApplicationID:
	case id != 0:
		return &NotCardroomError{path, fmt.Sprintf("its application_id is %#x, Cardroom's is %#x (another program's database)", id, ApplicationID)}
	case len(tables) == 0:
	case len(foreign) > 0:
		sort.Strings(foreign)
		return &NotCardroomError{path, fmt.Sprintf("it is another program's SQLite database (tables %s)", strings.Join(foreign, ", "))}
	case !hasMigrations:
		return &NotCardroomError{path, "it has Cardroom-like tables but no schema_migrations"}
	case applied[1] == "" && len(tables) > 1:
		return &NotCardroomError{path, "schema_migrations does not record Cardroom's first migration"}
	}
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	if u := unknownMigration(applied, ms); u != "" {
		return fmt.Errorf("%s: the database has migrations this Cardroom does not know (%s): it was made by a newer version; run that one", path, u)
	}
	return nil
}
