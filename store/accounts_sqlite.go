package store

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"time"
)

// The SQLite side of Accounts (migration 004_accounts). Writes go through
// the single writer connection, as every write does.

// sq is the SQL the SQLite store shares with the PostgreSQL one
// (sqlshared.go): writes on the writer connection, reads on the readers.
func (s *SQLite) sq() sqlStore { return sqlStore{w: s.w, r: s.r} }

// CreateAccount implements Accounts. The unique index on skeleton decides
// between two claims of look-alike names racing: one commits, the other
// gets ErrNameTaken.
func (s *SQLite) CreateAccount(ctx context.Context, a Account) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().createAccount(ctx, a)
}

const accountColumns = `player, name, skeleton, hash, created, password_changed`

func scanAccount(row *sql.Row) (Account, error) {
	var a Account
	var c, p int64
	err := row.Scan(&a.Player, &a.Name, &a.Skeleton, &a.Hash, &c, &p)
	if errors.Is(err, sql.ErrNoRows) {
		return Account{}, ErrNotFound
	}
	if err != nil {
		return Account{}, err
	}
	a.Created, a.PasswordChanged = time.UnixMilli(c).UTC(), time.UnixMilli(p).UTC()
	return a, nil
}

// AccountByPlayer implements Accounts.
func (s *SQLite) AccountByPlayer(ctx context.Context, player string) (Account, error) {
	return s.sq().accountBy(ctx, "player", player)
}

// AccountBySkeleton implements Accounts (by the accounts_skeleton index).
func (s *SQLite) AccountBySkeleton(ctx context.Context, skeleton string) (Account, error) {
	return s.sq().accountBy(ctx, "skeleton", skeleton)
}

// ChangePassword implements Accounts.
func (s *SQLite) ChangePassword(ctx context.Context, player, hash string, at time.Time, keep string) ([]string, error) {
	if err := s.writable(); err != nil {
		return nil, err
	}
	return s.sq().changePassword(ctx, player, hash, at, keep)
}

// Rehash implements Accounts.
func (s *SQLite) Rehash(ctx context.Context, player, old, hash string) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().rehash(ctx, player, old, hash)
}

// SessionsOf implements Accounts (by the sessions_player index).
func (s *SQLite) SessionsOf(ctx context.Context, player string) ([]Session, error) {
	return sessionsOf(ctx, s.r, player)
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// sessionsOf and deleteSessionsOf number their parameters ($1), which
// SQLite and PostgreSQL both read, so the PostgreSQL store shares them.
func sessionsOf(ctx context.Context, q queryer, player string) ([]Session, error) {
	rows, err := q.QueryContext(ctx, `SELECT token_hash, player, name, created, expires FROM sessions WHERE player = $1`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		var se Session
		var c, e int64
		if err := rows.Scan(&se.TokenHash, &se.Player, &se.Name, &c, &e); err != nil {
			return nil, err
		}
		se.Created, se.Expires = time.UnixMilli(c).UTC(), time.UnixMilli(e).UTC()
		out = append(out, se)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sortSessions(out)
	return out, nil
}

// DeleteSessionsOf implements Accounts.
func (s *SQLite) DeleteSessionsOf(ctx context.Context, player, keep string) ([]string, error) {
	if err := s.writable(); err != nil {
		return nil, err
	}
	return s.sq().deleteSessionsOf(ctx, player, keep)
}

// deleteSessionsOf deletes in tx the player's sessions but keep and
// returns their token hashes.
func deleteSessionsOf(ctx context.Context, tx queryer, player, keep string) ([]string, error) {
	ss, err := sessionsOf(ctx, tx, player)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, se := range ss {
		if se.TokenHash == keep {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = $1`, se.TokenHash); err != nil {
			return nil, err
		}
		out = append(out, se.TokenHash)
	}
	sort.Strings(out)
	return out, nil
}

// TrimSessions implements Accounts.
func (s *SQLite) TrimSessions(ctx context.Context, player string, limit int, keep string) ([]string, error) {
	if err := s.writable(); err != nil {
		return nil, err
	}
	return s.sq().trimSessions(ctx, player, limit, keep)
}
