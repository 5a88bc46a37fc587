package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// The SQLite side of BotAccounts (migration 007_bot_accounts). Writes go
// through the single writer connection, as every write does, so the count
// of a bot's tokens and the insert that follows it cannot interleave with
// another issue.

func init() {
	// The tables of 007_bot_accounts are Cardroom's (identity.go).
	ourTables["bot_accounts"], ourTables["bot_tokens"] = true, true
}

// MarkBot implements BotAccounts.
func (s *SQLite) MarkBot(ctx context.Context, player string, at time.Time) (time.Time, error) {
	if err := s.writable(); err != nil {
		return time.Time{}, err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return time.Time{}, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE player = ?`, player).Scan(&n); err != nil {
		return time.Time{}, err
	}
	if n == 0 {
		return time.Time{}, ErrNotFound
	}
	var since int64
	err = tx.QueryRowContext(ctx, `SELECT since FROM bot_accounts WHERE player = ?`, player).Scan(&since)
	if err == nil {
		return time.UnixMilli(since).UTC(), nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO bot_accounts(player, since) VALUES (?, ?)`, player, at.UnixMilli()); err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(at.UnixMilli()).UTC(), tx.Commit()
}

// Bots implements BotAccounts.
func (s *SQLite) Bots(ctx context.Context, limit int) ([]Bot, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT player, since FROM bot_accounts ORDER BY player LIMIT ?`, max(0, limit))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Bot
	for rows.Next() {
		var b Bot
		var since int64
		if err := rows.Scan(&b.Player, &since); err != nil {
			return nil, err
		}
		b.Since = time.UnixMilli(since).UTC()
		out = append(out, b)
	}
	return out, rows.Err()
}

// CreateBotToken implements BotAccounts.
func (s *SQLite) CreateBotToken(ctx context.Context, t BotToken, limit int) error {
	if err := s.writable(); err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bot, n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM bot_accounts WHERE player = ?`, t.Player).Scan(&bot); err != nil {
		return err
	}
	if bot == 0 {
		return ErrNotBot
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM bot_tokens WHERE player = ?`, t.Player).Scan(&n); err != nil {
		return err
	}
	if n >= limit {
		return ErrTooManyTokens
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO bot_tokens(token_hash, player, label, created) VALUES (?, ?, ?, ?)`,
		t.Hash, t.Player, t.Label, t.Created.UnixMilli()); err != nil {
		return err
	}
	return tx.Commit()
}

// BotToken implements BotAccounts.
func (s *SQLite) BotToken(ctx context.Context, hash string) (BotToken, error) {
	t := BotToken{Hash: hash}
	var c int64
	err := s.r.QueryRowContext(ctx, `SELECT player, label, created FROM bot_tokens WHERE token_hash = ?`, hash).Scan(&t.Player, &t.Label, &c)
	if errors.Is(err, sql.ErrNoRows) {
		return BotToken{}, ErrNotFound
	}
	if err != nil {
		return BotToken{}, err
	}
	t.Created = time.UnixMilli(c).UTC()
	return t, nil
}

// BotTokensOf implements BotAccounts (by the bot_tokens_player index).
func (s *SQLite) BotTokensOf(ctx context.Context, player string) ([]BotToken, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT token_hash, label, created FROM bot_tokens WHERE player = ?`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BotToken
	for rows.Next() {
		t := BotToken{Player: player}
		var c int64
		if err := rows.Scan(&t.Hash, &t.Label, &c); err != nil {
			return nil, err
		}
		t.Created = time.UnixMilli(c).UTC()
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sortBotTokens(out)
	return out, nil
}

// DeleteBotToken implements BotAccounts.
func (s *SQLite) DeleteBotToken(ctx context.Context, player, hash string) error {
	if err := s.writable(); err != nil {
		return err
	}
	res, err := s.w.ExecContext(ctx, `DELETE FROM bot_tokens WHERE token_hash = ? AND player = ?`, hash, player)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	return nil
}
