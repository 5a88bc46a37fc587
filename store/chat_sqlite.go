package store

import (
	"context"
	"time"
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
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO chat_lines(table_id, id, channel, player, name, seat, text, phrase, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, l.Table, l.ID, l.Channel, l.Player, l.Name, l.Seat, l.Text, l.Phrase, l.At.UnixMilli()); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM chat_lines WHERE table_id = ? AND id <= ?`, l.Table, l.ID-int64(max(1, keep))); err != nil {
		return err
	}
	return tx.Commit()
}

// ChatLines implements Chat.
func (s *SQLite) ChatLines(ctx context.Context, table string, limit int) ([]ChatLine, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, channel, player, name, seat, text, phrase, at FROM chat_lines
		WHERE table_id = ? ORDER BY id DESC LIMIT ?`, table, max(0, limit))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ChatLine
	for rows.Next() {
		l := ChatLine{Table: table}
		var at int64
		if err := rows.Scan(&l.ID, &l.Channel, &l.Player, &l.Name, &l.Seat, &l.Text, &l.Phrase, &at); err != nil {
			return nil, err
		}
		l.At = time.UnixMilli(at).UTC()
		out = append(out, l)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, rows.Err()
}

// SpectatorChatOff implements Chat.
func (s *SQLite) SpectatorChatOff(ctx context.Context, table string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM chat_settings WHERE table_id = ? AND spectators_off = 1`, table).Scan(&n)
	return n > 0, err
}

// SetSpectatorChatOff implements Chat.
func (s *SQLite) SetSpectatorChatOff(ctx context.Context, table string, off bool) error {
	if err := s.writable(); err != nil {
		return err
	}
	v := 0
	if off {
		v = 1
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO chat_settings(table_id, spectators_off) VALUES (?, ?)
		ON CONFLICT(table_id) DO UPDATE SET spectators_off = excluded.spectators_off`, table, v)
	return err
}

// AddChatReport implements Chat.
func (s *SQLite) AddChatReport(ctx context.Context, r ChatReport) error {
	if err := s.writable(); err != nil {
		return err
	}
	l := r.Line
	_, err := s.w.ExecContext(ctx, `INSERT INTO chat_reports(table_id, line, reporter, reporter_name, reason, at,
		channel, player, name, text, phrase, line_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		l.Table, l.ID, r.Reporter, r.ReporterName, r.Reason, r.At.UnixMilli(), l.Channel, l.Player, l.Name, l.Text, l.Phrase, l.At.UnixMilli())
	if err != nil && isConflict(err) {
		return ErrDuplicate
	}
	return err
}

// ChatReports implements Chat.
func (s *SQLite) ChatReports(ctx context.Context, limit int) ([]ChatReport, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, table_id, line, reporter, reporter_name, reason, at, channel, player, name, text, phrase, line_at
		FROM chat_reports ORDER BY id DESC LIMIT ?`, min(max(0, limit), MaxReports))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ChatReport
	for rows.Next() {
		var r ChatReport
		var at, lineAt int64
		if err := rows.Scan(&r.ID, &r.Line.Table, &r.Line.ID, &r.Reporter, &r.ReporterName, &r.Reason, &at,
			&r.Line.Channel, &r.Line.Player, &r.Line.Name, &r.Line.Text, &r.Line.Phrase, &lineAt); err != nil {
			return nil, err
		}
		r.At, r.Line.At = time.UnixMilli(at).UTC(), time.UnixMilli(lineAt).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}
