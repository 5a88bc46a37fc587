package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Migrations are pairs migrations/NNN_name.up.sql and NNN_name.down.sql,
// applied in number order. schema_migrations records each applied one by
// its "NNN_name"; databases made before the down steps recorded
// "migrations/001_init.sql", which counts as number 1 (the number is all
// that identifies a migration, so old rows need no rewriting and stay
// readable by the older binary).
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	n        int
	name     string // "001_init"
	up, down string
}

// loadMigrations reads the embedded pairs, in number order; a migration
// without its down step (or two with one number) is a build mistake.
func loadMigrations() ([]migration, error) { return loadMigrationsFrom(migrationFiles, "migrations") }

// loadMigrationsFrom is loadMigrations for the pairs in dir of fsys (the
// PostgreSQL store's are in migrations_pg).
func loadMigrationsFrom(fsys fs.ReadFileFS, dir string) ([]migration, error) {
	names, err := fs.Glob(fsys, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	byN := map[int]*migration{}
	for _, p := range names {
		base := path.Base(p)
		var name, dir string
		switch {
		case strings.HasSuffix(base, ".up.sql"):
			name, dir = strings.TrimSuffix(base, ".up.sql"), "up"
		case strings.HasSuffix(base, ".down.sql"):
			name, dir = strings.TrimSuffix(base, ".down.sql"), "down"
		default:
			return nil, fmt.Errorf("migration %s: want NNN_name.up.sql or NNN_name.down.sql", p)
		}
		n := versionNumber(name)
		if n <= 0 {
			return nil, fmt.Errorf("migration %s: no number", p)
		}
		body, err := fsys.ReadFile(p)
		if err != nil {
			return nil, err
		}
		m := byN[n]
		if m == nil {
			m = &migration{n: n, name: name}
			byN[n] = m
		} else if m.name != name {
			return nil, fmt.Errorf("migrations %s and %s share number %d", m.name, name, n)
		}
		if dir == "up" {
			m.up = string(body)
		} else {
			m.down = string(body)
		}
	}
	var out []migration
	for _, m := range byN {
		if m.up == "" || m.down == "" {
			return nil, fmt.Errorf("migration %s: needs both .up.sql and .down.sql", m.name)
		}
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].n < out[j].n })
	return out, nil
}

// versionNumber is the leading number of a recorded version or file name
// ("001_init", "migrations/001_init.sql"), or -1.
func versionNumber(v string) int {
	v = path.Base(v)
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(v[:i])
	if err != nil {
		return -1
	}
	return n
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// appliedMigrations maps each recorded migration number to the version
// text recorded for it.
func appliedMigrations(ctx context.Context, db querier) (map[int]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out[versionNumber(v)] = v
	}
	return out, rows.Err()
}

// unknownMigration names a recorded migration this binary does not have:
// the database was made by a newer Cardroom, and running on it with an
// older schema in mind would misread it.
func unknownMigration(applied map[int]string, ms []migration) string {
	known := map[int]bool{}
	for _, m := range ms {
		known[m.n] = true
	}
	var unknown []string
	for n, v := range applied {
		if !known[n] {
			unknown = append(unknown, v)
		}
	}
	sort.Strings(unknown)
	return strings.Join(unknown, ", ")
}

// pending returns the migrations of ms that db has not recorded, in
// order, or an error if db records one that ms lacks.
func pending(ctx context.Context, db querier, ms []migration) ([]migration, error) {
	applied, err := appliedMigrations(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	if u := unknownMigration(applied, ms); u != "" {
		return nil, fmt.Errorf("the database has migrations this Cardroom does not know (%s): it was made by a newer version; run that one", u)
	}
	var out []migration
	for _, m := range ms {
		if _, ok := applied[m.n]; !ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// migrate applies the migrations not yet recorded, each in its own
// transaction, and stamps the file with Cardroom's application_id.
func (s *SQLite) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	// One transaction for both, so no file is left with our table and
	// without our id.
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY)`); err != nil {
		tx.Rollback()
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID)); err != nil {
		tx.Rollback()
		return fmt.Errorf("application_id: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	todo, err := pending(ctx, s.w, ms)
	if err != nil {
		return err
	}
	for _, m := range todo {
		if err := s.runMigration(ctx, m.name, m.up, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version) VALUES (?)`, m.name)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// MigrateDown undoes the applied migrations numbered above to, newest
// first (to = 0 leaves an empty database with only schema_migrations). It
// exists so tests can check that every down step undoes its up step; a
// room never calls it. Nothing may be appending meanwhile.
func (s *SQLite) MigrateDown(ctx context.Context, to int) error {
	if err := s.writable(); err != nil {
		return err
	}
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	undo, err := toUndo(ctx, s.w, ms, to)
	if err != nil {
		return err
	}
	for _, m := range undo {
		if err := s.runMigration(ctx, m.name+" (down)", m.down, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `DELETE FROM schema_migrations WHERE version = ?`, m.recorded)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// appliedMigration is a migration as a database recorded it.
type appliedMigration struct {
	migration
	recorded string // the version text in schema_migrations
}

// toUndo lists the migrations of ms that db records and that are numbered
// above to, newest first: what MigrateDown undoes.
func toUndo(ctx context.Context, db querier, ms []migration, to int) ([]appliedMigration, error) {
	recorded, err := appliedMigrations(ctx, db)
	if err != nil {
		return nil, err
	}
	var out []appliedMigration
	for i := len(ms) - 1; i >= 0; i-- {
		if v, ok := recorded[ms[i].n]; ok && ms[i].n > to {
			out = append(out, appliedMigration{ms[i], v})
		}
	}
	return out, nil
}

// runMigration runs a script's statements and then record in one
// transaction.
func (s *SQLite) runMigration(ctx context.Context, name, body string, record func(*sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for _, stmt := range strings.Split(stripComments(body), ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	if err := record(tx); err != nil {
		tx.Rollback()
		return fmt.Errorf("migration %s: %w", name, err)
	}
	return tx.Commit()
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
