package store

import (
	"context"
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
	return s.sq().markBot(ctx, player, at)
}

// Bots implements BotAccounts.
func (s *SQLite) Bots(ctx context.Context, limit int) ([]Bot, error) { return s.sq().bots(ctx, limit) }

// CreateBotToken implements BotAccounts.
func (s *SQLite) CreateBotToken(ctx context.Context, t BotToken, limit int) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().createBotToken(ctx, t, limit)
}

// BotToken implements BotAccounts.
func (s *SQLite) BotToken(ctx context.Context, hash string) (BotToken, error) {
	return s.sq().botToken(ctx, hash)
}

// BotTokensOf implements BotAccounts (by the bot_tokens_player index).
func (s *SQLite) BotTokensOf(ctx context.Context, player string) ([]BotToken, error) {
	return s.sq().botTokensOf(ctx, player)
}

// DeleteBotToken implements BotAccounts.
func (s *SQLite) DeleteBotToken(ctx context.Context, player, hash string) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().deleteBotToken(ctx, player, hash)
}
