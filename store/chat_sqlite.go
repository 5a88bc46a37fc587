package store

import (
	"context"
)

// The SQLite side of Chat (migration 008_chat).

func init() {
	// The tables of 008_chat are Cardroom's (identity.go).
	for _, n := range []string{"chat_lines", "chat_settings", "chat_reports"} {
		ourTables[n] = true
	}
}

var _ Chat = (*SQLite)(nil)

// AppendChat implements Chat: the insert and the pruning in one
// transaction, so a table never holds more than keep lines.
func (s *SQLite) AppendChat(ctx context.Context, l ChatLine, keep int) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().appendChat(ctx, l, keep)
}

// ChatLines implements Chat.
func (s *SQLite) ChatLines(ctx context.Context, table string, limit int) ([]ChatLine, error) {
	return s.sq().chatLines(ctx, table, limit)
}

// SpectatorChatOff implements Chat.
func (s *SQLite) SpectatorChatOff(ctx context.Context, table string) (bool, error) {
	return s.sq().spectatorChatOff(ctx, table)
}

// SetSpectatorChatOff implements Chat.
func (s *SQLite) SetSpectatorChatOff(ctx context.Context, table string, off bool) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().setSpectatorChatOff(ctx, table, off)
}

// AddChatReport implements Chat.
func (s *SQLite) AddChatReport(ctx context.Context, r ChatReport) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().addChatReport(ctx, r)
}

// ChatReports implements Chat.
func (s *SQLite) ChatReports(ctx context.Context, limit int) ([]ChatReport, error) {
	return s.sq().chatReports(ctx, limit)
}
